import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

@Suite struct ParameterEncoderTests {
    struct Page: Encodable, Sendable {
        var number: Int
        var size: Int
    }
    struct Filters: Encodable, Sendable {
        var text: String
        var tags: [String]
        var since: Date?
        var until: Date?
        var page: Page
        var archived: Bool
        var ratio: Double
    }

    static let filters = Filters(
        text: "a+b c&d=é", tags: ["swift", "http"], since: Date(timeIntervalSince1970: 1_795_545_000),
        until: nil, page: Page(number: 2, size: 50), archived: true, ratio: 0.5
    )

    @Test func nestedValuesArraysBooleansAndDatesBecomeItemsInOrder() throws {
        // Given the default rules
        let encoder = ParameterEncoder()

        // When a filters value is encoded
        let items = try encoder.queryItems(Self.filters)

        // Then each property is an item, nested ones as parent[child], nil left out
        #expect(
            items.map { "\($0.name)=\($0.value ?? "")" } == [
                "text=a+b c&d=é", "tags[]=swift", "tags[]=http", "since=2026-11-24T18:30:00Z",
                "page[number]=2", "page[size]=50", "archived=true", "ratio=0.5",
            ])
    }

    @Test func theQueryIsPercentEncodedAsQueryEncoderDoes() throws {
        // Given the default rules
        // When the query string is made
        let query = try ParameterEncoder().query(Self.filters)

        // Then every reserved character, brackets included, is percent-encoded
        #expect(
            query == "text=a%2Bb%20c%26d%3D%C3%A9&tags%5B%5D=swift&tags%5B%5D=http"
                + "&since=2026-11-24T18%3A30%3A00Z&page%5Bnumber%5D=2&page%5Bsize%5D=50&archived=true&ratio=0.5")
    }

    @Test func otherStrategiesForArraysBooleansAndDates() throws {
        // Given repeated arrays, numeric booleans, dates in seconds, then indexed arrays and milliseconds
        struct Value: Encodable, Sendable {
            var ids: [Int]
            var on: Bool
            var at: Date
        }
        let value = Value(ids: [1, 2], on: false, at: Date(timeIntervalSince1970: 1.5))
        let repeated = ParameterEncoder(
            arrayEncoding: .repeated, boolEncoding: .numeric, dateEncoding: .secondsSince1970)
        let indexed = ParameterEncoder(arrayEncoding: .indexed, dateEncoding: .millisecondsSince1970)
        let custom = ParameterEncoder(dateEncoding: .custom { _ in "yesterday" })

        // When each encodes the value
        // Then each follows its rules
        #expect(try repeated.query(value) == "ids=1&ids=2&on=0&at=1.5")
        #expect(try indexed.query(value) == "ids%5B0%5D=1&ids%5B1%5D=2&on=false&at=1500")
        #expect(try custom.query(value) == "ids%5B%5D=1&ids%5B%5D=2&on=false&at=yesterday")
    }

    @Test func valuesThatEncodeThroughASingleValueContainerBecomeItems() throws {
        // Given a raw-value enum, a type that encodes itself as one value and an optional one left empty
        enum Sort: String, Encodable, Sendable { case newest }
        struct Cents: Encodable, Sendable {
            var amount: Int
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode("\(amount / 100).\(amount % 100)")
            }
        }
        struct Nothing: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            }
        }
        struct Value: Encodable, Sendable {
            var sort: Sort
            var price: Cents
            var tags: [Sort]
            var nothing: Nothing
        }

        // When it is encoded
        let items = try ParameterEncoder().queryItems(
            Value(sort: .newest, price: Cents(amount: 1250), tags: [.newest], nothing: Nothing()))

        // Then each single value is written under its name, and the nil one is left out
        #expect(items.map { "\($0.name)=\($0.value ?? "")" } == ["sort=newest", "price=12.50", "tags[]=newest"])
    }

    @Test func aFormBodyUsesPlusForSpaces() throws {
        // Given a login value
        struct Login: Encodable, Sendable {
            var user: String
            var password: String
        }

        // When it is a form body
        let request = BasicRequest(
            url: exampleURL("/login"), method: .post,
            body: .form(Login(user: "ada lovelace", password: "a+b")))
        let urlRequest = try request.checkedURLRequest()

        // Then the body is form-encoded with its content type
        #expect(String(decoding: urlRequest.httpBody ?? Data(), as: UTF8.self) == "user=ada+lovelace&password=a%2Bb")
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
    }

    @Test func aRequestsQueryValueIsAppendedAfterItsItems() throws {
        // Given a request with query items, a query value and a URL that has a query already
        struct Search: Request {
            var url: URL { URL(string: "https://api.example.com/items?sort=new")! }
            var queryItems: [URLQueryItem] { [URLQueryItem(name: "v", value: "2")] }
            var query: (any Encodable & Sendable)? { ParameterEncoderTests.filters.page }
        }

        // When it is performed over a spy
        let spy = SpyPerformer([.status(200)])
        _ = performNow(spy, Search())

        // Then the query has all three, in that order
        #expect(
            spy.calls.first?.urlRequest?.url?.absoluteString
                == "https://api.example.com/items?sort=new&v=2&number=2&size=50")
    }

    @Test func aValueThatFailsToEncodeFailsTheCallAndNothingIsSent() {
        // Given a request whose query value throws, and one whose query is not a keyed value
        let throwing = BasicRequest(url: exampleURL("/items"), query: Unencodable())
        let notKeyed = BasicRequest(url: exampleURL("/items"), query: [1, 2])
        let spy = SpyPerformer([.status(200), .status(200)])

        // When both are performed
        let errors = [throwing, notKeyed].map { fetchError(performNow(spy, $0)) }

        // Then both fail with an encoding error naming the request, and the script is untouched
        #expect(errors.map { $0?.code } == [.encoding, .encoding])
        #expect(errors[0]?.underlying is Unencodable.Refused)
        #expect(errors[1]?.description.contains("not a keyed value") == true)
        #expect(errors[0]?.url == exampleURL("/items"))
        #expect(spy.calls.allSatisfy { $0.urlRequest == nil })
    }
}

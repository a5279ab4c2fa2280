import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// Several responses for one URL that the server varies on a request header field (RFC 9111
/// sections 4.1 and 4.3.1).
@Suite struct CacheVariantTests {
    /// A request for the resource in `language`.
    static func request(_ language: String) -> BasicRequest { resource(headers: ["Accept-Language": language]) }

    /// Stores, through `fixture`, the response to `language` with `body` and, when given, `tag`.
    static func store(_ language: String, _ body: String, tag: String? = nil, in fixture: CacheFixture) {
        var headers: HTTPHeaders = ["Cache-Control": "max-age=60", "Vary": "Accept-Language"]
        if let tag { headers.add("ETag", tag) }
        fixture.next(fixture.answer(200, headers, body: body))
        _ = fixture.get(request(language))
    }

    @Test func eachStoredVariantAnswersTheRequestsItMatchesRFC9111Section4_1() {
        // Given the English and the French variants of one URL, stored one after the other
        let fixture = CacheFixture()
        Self.store("en", "hello", in: fixture)
        Self.store("fr", "bonjour", in: fixture)

        // When each language is asked for again
        let english = fixture.get(Self.request("en"))
        let french = fixture.get(Self.request("fr"))

        // Then each is a hit with its own body, and the server was asked twice in all
        #expect(english?.metrics.cache == .hit && english?.text == "hello")
        #expect(french?.metrics.cache == .hit && french?.text == "bonjour")
        #expect(fixture.spy.calls.count == 2)
    }

    @Test func atMostFourVariantsOfAURLAreKept() {
        // Given five variants of one URL stored one after the other
        let fixture = CacheFixture()
        for language in ["a", "b", "c", "d", "e"] { Self.store(language, "in \(language)", in: fixture) }

        // Then four are kept, the last one among them
        #expect(fixture.storage.count == 4)
        #expect(fixture.get(Self.request("e"))?.metrics.cache == .hit)
    }

    @Test func aResponseThatNoLongerVariesReplacesEveryVariant() {
        // Given two variants, then a response without Vary
        let fixture = CacheFixture()
        Self.store("en", "hello", in: fixture)
        Self.store("fr", "bonjour", in: fixture)
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: "one for all"))
        _ = fixture.get(resource(policy: .reload))

        // When French is asked for
        let french = fixture.get(Self.request("fr"))

        // Then the one response answers it, and is all that is stored
        #expect(french?.text == "one for all" && french?.metrics.cache == .hit)
        #expect(fixture.storage.count == 1)
    }

    @Test func whenNoVariantMatchesTheRequestNamesTheirEntityTagsAndA304SelectsOneRFC9111Section4_3_1() {
        // Given the English and the French variants, with entity tags
        let fixture = CacheFixture()
        Self.store("en", "hello", tag: "\"e\"", in: fixture)
        Self.store("fr", "bonjour", tag: "\"f\"", in: fixture)

        // When German is asked for, and the server answers that the French one does
        fixture.next(fixture.answer(304, ["ETag": "\"f\""], body: ""))
        let german = fixture.get(Self.request("de"))

        // Then the request named both tags, and the call got the French body, revalidated
        #expect(fixture.sentHeader("If-None-Match", of: 2) == "\"e\", \"f\"")
        #expect(fixture.sentHeader("If-Modified-Since", of: 2) == nil)
        #expect(german?.status == 200 && german?.text == "bonjour" && german?.metrics.cache == .revalidated)
    }

    @Test func aSingleVariantThatDoesNotMatchIsNamedToo() {
        // Given one variant with an entity tag
        let fixture = CacheFixture()
        Self.store("en", "hello", tag: "\"abcdef\"", in: fixture)

        // When another language is asked for, and the server answers 304 without naming a tag
        fixture.next(fixture.answer(304, [:], body: ""))
        let other = fixture.get(Self.request("en-GB"))

        // Then the request named its tag, and the 304 selected it
        #expect(fixture.sentHeader("If-None-Match", of: 1) == "\"abcdef\"")
        #expect(other?.text == "hello" && other?.metrics.cache == .revalidated)
    }

    @Test func a304NamingNoStoredVariantSendsTheRequestAgainWithoutConditions() {
        // Given two variants with entity tags
        let fixture = CacheFixture()
        Self.store("en", "hello", tag: "\"e\"", in: fixture)
        Self.store("fr", "bonjour", tag: "\"f\"", in: fixture)

        // When German is asked for, and the server answers 304 naming another tag, then 200
        fixture.next(fixture.answer(304, ["ETag": "\"x\""], body: ""))
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], body: "hallo"))
        let german = fixture.get(Self.request("de"))

        // Then the second request had no condition, and its answer was delivered
        #expect(fixture.sentHeader("If-None-Match", of: 3) == nil)
        #expect(german?.text == "hallo" && german?.metrics.cache == .miss)
    }
}

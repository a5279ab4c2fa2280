import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// The model most tests decode.
struct Account: Codable, Parsable, Equatable {
    let id: Int
    let name: String
}

/// A typed request for one ``Account``.
struct GetAccount: TypedRequest {
    typealias Output = Account
    let id: Int
    var url: URL { URL(string: "https://api.example.com/accounts/\(id)")! }
}

/// The API's own error body, for ``ErrorParsing``.
struct APIError: Decodable, Error, Equatable, ErrorParsing {
    let message: String

    static func error(from response: Response) -> (any Error)? {
        try? JSONDecoder().decode(APIError.self, from: response.body)
    }
}

/// A typed request whose error responses become ``APIError``.
struct GetAccountWithAPIErrors: TypedRequest {
    typealias Output = Account
    var url: URL { URL(string: "https://api.example.com/accounts/7")! }
    var errorParser: (any ErrorParsing.Type)? { APIError.self }
}

/// An `Encodable` whose encoding always fails.
struct Unencodable: Encodable, Sendable {
    struct Refused: Error {}
    func encode(to encoder: any Encoder) throws { throw Refused() }
}

/// `https://api.example.com` followed by `path`.
func exampleURL(_ path: String = "/") -> URL {
    URL(string: "https://api.example.com\(path)")!
}

/// A response with a JSON body written as text.
func jsonResponse(_ json: String, status: Int = 200) -> Response {
    Response(
        request: BasicRequest(url: exampleURL("/accounts/7")), status: status,
        headers: ["Content-Type": "application/json"], body: Data(json.utf8)
    )
}

/// A POST whose `adjust` sets `Content-Length` by hand, which no performer may send:
/// it would leave stray bytes on the connection.
struct SettingContentLength: Request {
    var url: URL { URL(string: "http://127.0.0.1:9/items")! }
    var method: HTTPMethod { .post }
    var body: RequestBody? { .text("hello") }
    func adjust(_ urlRequest: inout URLRequest) throws {
        urlRequest.setValue("1", forHTTPHeaderField: "Content-Length")
    }
}

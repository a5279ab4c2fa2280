import Foundation
import Fetch

/// `GET /get?q=…&lang=…`. A ``TypedRequest``: callers get an ``Echo`` without writing the type.
struct Search: TypedRequest {
    typealias Output = Echo
    let baseURL: URL
    let query: String
    let language: String

    var url: URL { baseURL.appendingPathComponent("get") }
    var queryItems: [URLQueryItem] {
        [URLQueryItem(name: "q", value: query), URLQueryItem(name: "lang", value: language)]
    }
    var headers: HTTPHeaders { ["Accept": "application/json"] }
}

/// `POST /post` with a user as JSON. A plain ``Request``: the caller names the model.
struct CreateUser: Request {
    let baseURL: URL
    let user: NewUser

    var url: URL { baseURL.appendingPathComponent("post") }
    var method: HTTPMethod { .post }
    var body: RequestBody? { .json(user) }
}

/// `GET /status/<code>`: the server answers with that status and no body worth reading.
struct Status: TypedRequest {
    typealias Output = Empty
    let baseURL: URL
    let code: Int

    var url: URL { baseURL.appendingPathComponent("status/\(code)") }
}

import Foundation
import Fetch

extension Response {
    /// A response whose body is `value` as JSON, with `Content-Type: application/json`.
    /// - Throws: the encoder's error when `value` cannot be encoded.
    public static func json<Value: Encodable>(
        _ value: Value, status: Int = 200, headers: HTTPHeaders = [:], encoder: JSONEncoder = JSONEncoder()
    ) throws -> Response {
        Response(
            status: status, headers: headers.merging(defaults: ["Content-Type": "application/json"]),
            body: try encoder.encode(value))
    }

    /// A response whose body is `text`, as written, with `Content-Type: application/json`:
    /// for a hand-written fixture that no `Encodable` describes, or one that does not decode.
    public static func json(raw text: String, status: Int = 200, headers: HTTPHeaders = [:]) -> Response {
        Response(
            status: status, headers: headers.merging(defaults: ["Content-Type": "application/json"]),
            body: Data(text.utf8))
    }

    /// A response with `status` and an optional text body.
    public static func status(_ status: Int, body: String = "", headers: HTTPHeaders = [:]) -> Response {
        Response(status: status, headers: headers, body: Data(body.utf8))
    }

    /// A response whose body is `text`, as `text/plain; charset=utf-8` unless told otherwise.
    public static func text(
        _ text: String, status: Int = 200,
        contentType: String = "text/plain; charset=utf-8"
    ) -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: Data(text.utf8))
    }
}

extension SpyPerformer.Answer {
    /// Answers with `value` as JSON.
    /// - Throws: the encoder's error when `value` cannot be encoded.
    public static func json<Value: Encodable>(
        _ value: Value, status: Int = 200,
        headers: HTTPHeaders = [:]
    ) throws -> SpyPerformer.Answer {
        .response(try Response.json(value, status: status, headers: headers))
    }

    /// Answers with `status` and an optional text body.
    public static func status(_ status: Int, body: String = "", headers: HTTPHeaders = [:]) -> SpyPerformer.Answer {
        .response(Response.status(status, body: body, headers: headers))
    }

    /// Answers with a text body.
    public static func text(_ text: String, status: Int = 200) -> SpyPerformer.Answer {
        .response(Response.text(text, status: status))
    }

    /// Fails with a `FetchError` of `code`.
    public static func failure(_ code: FetchError.Code, reason: String = "scripted failure") -> SpyPerformer.Answer {
        .failure(FetchError(code, reason: reason))
    }
}

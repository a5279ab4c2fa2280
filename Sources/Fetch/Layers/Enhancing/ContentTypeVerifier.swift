/// Fails every response with a body whose media type is not an accepted one, with
/// ``FetchError/Code-swift.enum/badServerResponse`` (the error carries the response).
///
/// A response without a body (a 204, a 304, an answer to HEAD) passes; a download's body is checked too, and a stream's
/// head before the reader gets any of it. Media types are compared without case or parameters (`charset`).
public struct ContentTypeVerifier: Enhancer {
    /// The accepted media types, lowercased.
    public let mediaTypes: Set<String>

    /// Accepts `mediaTypes`, for example `"application/json"`.
    public init(_ mediaTypes: String...) { self.mediaTypes = Set(mediaTypes.map { $0.lowercased() }) }

    /// Accepts only `application/json`.
    public static let json = ContentTypeVerifier("application/json")

    /// Checks the media type.
    public func enhance(_ response: inout Response) throws {
        guard Self.hasBody(response) else { return }
        let mediaType = response.mediaType
        guard let mediaType, mediaTypes.contains(mediaType) else {
            let expected = mediaTypes.sorted().joined(separator: " or ")
            throw FetchError(
                .badServerResponse, reason: "expected a \(expected) body, got \(mediaType ?? "no Content-Type")",
                method: HTTPMethod(rawValue: response.urlRequest.httpMethod ?? "GET"),
                url: response.urlRequest.url ?? response.url, response: response
            )
        }
    }

    private static func hasBody(_ response: Response) -> Bool {
        if !response.body.isEmpty { return true }
        guard response.fileURL != nil || response.isStreamed else { return false }
        return !Response.hasNoBody(method: response.urlRequest.httpMethod, status: response.status)
            && response.headers.first("Content-Length") != "0"
    }
}

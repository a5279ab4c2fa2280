/// A ``Request`` that names the model it returns in `Output`, so calls need no type annotation.
public protocol TypedRequest: Request {
    /// The model the response is parsed into; a `Decodable` model need only declare `Parsable`.
    associatedtype Output: Parsable
    /// Turns error responses into the API's own error; `nil` (the default) keeps
    /// ``FetchError/Code-swift.enum/httpStatus``.
    var errorParser: (any ErrorParsing.Type)? { get }
}

extension TypedRequest {
    /// No error parser.
    public var errorParser: (any ErrorParsing.Type)? { nil }
}

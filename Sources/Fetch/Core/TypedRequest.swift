/// A ``Request`` that names the model it returns, so calls need no type annotation:
///
/// ```swift
/// struct GetUser: TypedRequest {
///     typealias Output = User
///     let id: Int
///     var url: URL { URL(string: "/users/\(id)")! }
/// }
/// let user = try await api.perform(GetUser(id: 7))   // a User
/// ```
public protocol TypedRequest: Request {
    /// The model the response is parsed into. A `Decodable` model must declare `Parsable`
    /// (`struct User: Decodable, Parsable`), nothing more; without it this request does not
    /// conform to `TypedRequest`.
    associatedtype Output: Parsable
    /// Turns error responses into the API's own error; `nil` (the default) keeps
    /// ``FetchError/Code-swift.enum/httpStatus``.
    var errorParser: (any ErrorParsing.Type)? { get }
}

extension TypedRequest {
    /// No error parser.
    public var errorParser: (any ErrorParsing.Type)? { nil }
}

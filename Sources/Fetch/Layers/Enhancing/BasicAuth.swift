/// Sends `Authorization: Basic <base64 of user:password>` (RFC 7617) with every request, except one that sets its
/// own or ``RequestOptions/skipsAuthentication``. A user name with `:` fails every call as `invalidRequest`.
public struct BasicAuth: Enhancer, RequestOnlyEnhancer {
    private let credentials: Result<String, FetchError>

    /// Makes the enhancer; the credentials are encoded as UTF-8.
    public init(username: String, password: String) {
        if username.contains(":") {
            credentials = .failure(FetchError(.invalidRequest, reason: "a Basic auth user name cannot contain \":\""))
        } else {
            credentials = .success("Basic " + Data("\(username):\(password)".utf8).base64EncodedString())
        }
    }

    /// Adds the `Authorization` field.
    public func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
        guard urlRequest.header("Authorization") == nil,
            !request.options.skipsAuthentication
        else { return }
        urlRequest.setValue(try credentials.get(), forHTTPHeaderField: "Authorization")
    }
}

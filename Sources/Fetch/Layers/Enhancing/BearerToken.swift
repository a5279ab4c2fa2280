/// Sends `Authorization: Bearer <token>` with every request. With no token (`nil`) the request goes without one; a
/// request that sets its own `Authorization`, or sets ``RequestOptions/skipsAuthentication``, is left alone. A token
/// holding CR, LF or NUL fails the call with ``FetchError/Code-swift.enum/invalidRequest``.
public struct BearerToken: Enhancer, RequestOnlyEnhancer {
    private let token: @Sendable () throws -> String?

    /// Reads the token from `store` for every request.
    public init(_ store: TokenStore) { token = { store.token } }

    /// Asks `token` for the token for every request; it may throw to fail the call.
    public init(_ token: @escaping @Sendable () throws -> String?) { self.token = token }

    /// Adds the `Authorization` field.
    public func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
        guard urlRequest.header("Authorization") == nil,
            !request.options.skipsAuthentication,
            let token = try token()
        else { return }
        try urlRequest.setHeader("Authorization", "Bearer " + token, replacing: true)
    }
}

extension RequestOptions {
    private enum SkipsAuthenticationKey: RequestOptionKey { static let defaultValue = false }

    /// Whether authentication enhancers (``BearerToken``, ``BasicAuth``) skip this request; `false` by default.
    public var skipsAuthentication: Bool {
        get { self[SkipsAuthenticationKey.self] }
        set { self[SkipsAuthenticationKey.self] = newValue }
    }
}

/// A token that can change while requests use it, safe to read and write from any thread:
/// ``BearerToken`` reads it for every request, and a ``RefreshTokenHandler`` writes it.
public final class TokenStore: Sendable {
    private let stored: Locked<String?>

    /// Makes a store holding `token`, or no token.
    public init(_ token: String? = nil) { stored = Locked(token) }

    /// The current token; `nil` when there is none.
    public var token: String? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

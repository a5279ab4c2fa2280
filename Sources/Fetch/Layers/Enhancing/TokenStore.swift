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

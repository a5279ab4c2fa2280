/// A token that can change while requests use it, safe to read and write from any thread.
///
/// ``BearerToken`` reads it for every request; a refresh (see ``RefreshTokenHandler``)
/// writes the new one, and a resent request picks it up.
public final class TokenStore: @unchecked Sendable {
    // `lock` guards `stored`.
    private let lock = Locked()
    private var stored: String?

    /// Makes a store holding `token`, or no token.
    public init(_ token: String? = nil) { stored = token }

    /// The current token; `nil` when there is none.
    public var token: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

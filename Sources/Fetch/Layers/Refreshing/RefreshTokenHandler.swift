/// Refreshes credentials after a response with an authentication status (401 by default),
/// so that the call can be resent with the new ones.
///
/// ```swift
/// let store = TokenStore(savedToken)
/// let api = Session()
///     .enhanced(by: BearerToken(store))
///     .refreshing(with: RefreshTokenHandler(store) { try await auth.refreshedToken() })
/// ```
///
/// The refresh must put the new credentials where the enhancers read them (the store
/// initializer does it for you): the resent request is built again, through the
/// enhancers below the refresh layer.
public struct RefreshTokenHandler: RefreshHandler {
    /// The statuses that start a refresh.
    public let statuses: Set<Int>
    private let refresh: @Sendable (@escaping @Sendable (Result<Void, any Error>) -> Void) -> Void

    /// Refreshes with `refresh`, which calls its argument once when done.
    /// - Parameters:
    ///   - statuses: the response statuses that start a refresh; 401 by default.
    ///   - refresh: does the refresh and reports how it went.
    public init(
        statuses: Set<Int> = [401],
        refresh: @escaping @Sendable (_ done: @escaping @Sendable (Result<Void, any Error>) -> Void) -> Void
    ) {
        self.statuses = statuses
        self.refresh = refresh
    }

    /// Refreshes by asking `newToken` for a token and storing it in `store`.
    ///
    /// The refresh runs in a `Task`, so a call that needs it completes after `perform`
    /// returns, even over a spy; for tests that assert on the next line, use
    /// ``init(statuses:refresh:)`` and call `done` yourself.
    /// - Parameters:
    ///   - store: where ``BearerToken`` reads the token.
    ///   - statuses: the response statuses that start a refresh; 401 by default.
    ///   - newToken: fetches a new token; an error fails every waiting call.
    public init(
        _ store: TokenStore, statuses: Set<Int> = [401], newToken: @escaping @Sendable () async throws -> String
    ) {
        self.statuses = statuses
        refresh = { done in
            Task {
                do {
                    store.token = try await newToken()
                    done(.success(()))
                } catch {
                    done(.failure(error))
                }
            }
        }
    }

    /// Whether the call got a response with one of ``statuses``: delivered as a response,
    /// or carried by a ``FetchError`` (``FetchError/response``), as ``StatusVerifier`` and
    /// other layers below deliver a status they reject.
    public func shouldRefresh(after result: Result<Response, any Error>, for request: any Request) -> Bool {
        result.response.map { statuses.contains($0.status) } ?? false
    }

    /// Runs the refresh.
    public func run(completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        refresh(completion)
    }
}

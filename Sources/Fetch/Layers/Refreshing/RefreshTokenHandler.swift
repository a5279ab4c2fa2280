/// Refreshes credentials after a response with an authentication status (401 by default). The refresh must put them
/// where the enhancers read them (as the store initializer does): the resent call goes through them again.
public struct RefreshTokenHandler: RefreshHandler {
    /// The statuses that start a refresh.
    public let statuses: Set<Int>
    private let refresh: @Sendable (@escaping @Sendable (Result<Void, any Error>) -> Void) -> Void

    /// Refreshes with `refresh`, which calls `done` once, after a response with one of `statuses` (401 by default).
    public init(
        statuses: Set<Int> = [401],
        refresh: @escaping @Sendable (_ done: @escaping @Sendable (Result<Void, any Error>) -> Void) -> Void
    ) {
        self.statuses = statuses
        self.refresh = refresh
    }

    /// Refreshes by storing the token `newToken` returns in `store`, where ``BearerToken`` reads it, after a response
    /// with one of `statuses` (401 by default); an error fails every waiting call. The refresh runs in a `Task`, so its
    /// call completes after `perform` returns, even over a spy (tests asserting at once: ``init(statuses:refresh:)``).
    public init(
        _ store: TokenStore, statuses: Set<Int> = [401], newToken: @escaping @Sendable () async throws -> String
    ) {
        self.init(statuses: statuses) { done in
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

    /// Whether the call got one of ``statuses``, delivered as a response or carried by a
    /// ``FetchError`` (``FetchError/response``), as ``StatusVerifier`` delivers it.
    public func shouldRefresh(after result: Result<Response, any Error>, for request: any Request) -> Bool {
        // Read in place: `result.response` would copy the response on every call.
        switch result {
        case .success(let response): statuses.contains(response.status)
        case .failure(let error): (error as? FetchError)?.response.map { statuses.contains($0.status) } ?? false
        }
    }

    /// Runs the refresh.
    public func run(completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        refresh(completion)
    }
}

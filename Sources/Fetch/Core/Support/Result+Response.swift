extension Result where Success == Response, Failure == any Error {
    /// The response delivered, or the one a ``FetchError`` carries (as for a status a layer below rejected).
    var response: Response? {
        switch self {
        case .success(let response): response
        case .failure(let error): (error as? FetchError)?.response
        }
    }
}

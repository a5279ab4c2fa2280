extension Result where Success == Response, Failure == any Error {
    /// The response this result is about: the one delivered, or the one a ``FetchError``
    /// carries (``FetchError/response``, as for a status a layer below rejected).
    var response: Response? {
        switch self {
        case .success(let response): response
        case .failure(let error): (error as? FetchError)?.response
        }
    }
}

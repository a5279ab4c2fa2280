extension Result where Success == Response, Failure == any Error {
    /// The same result with `request` as the response's request (also in a ``FetchError``
    /// that carries a response), so the caller sees the request it passed rather than a
    /// layer's internal one.
    func restoring(_ request: any Request) -> Result<Response, any Error> {
        switch self {
        case .success(var response):
            response.request = request
            return .success(response)
        case .failure(var error as FetchError) where error.response != nil:
            error.response?.request = request
            return .failure(error)
        case .failure:
            return self
        }
    }
}

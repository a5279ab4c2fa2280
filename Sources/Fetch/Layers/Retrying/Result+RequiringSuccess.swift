extension Result where Success == Response, Failure == any Error {
    /// This result with a response whose status is not 2xx turned into
    /// ``FetchError/Code-swift.enum/httpStatus`` (carrying the response), for code that
    /// treats only 2xx as success, such as a `performRetryable` completion:
    ///
    /// ```swift
    /// api.performRetryable(request) { result, retry in
    ///     let result = result.requiringSuccess()       // a 503 is a failure from here on
    ///     if case .failure = result, retry.retry(maxAttempts: 3, delay: .seconds(1)) { return }
    ///     show(result)
    /// }
    /// ```
    public func requiringSuccess() -> Result<Response, any Error> {
        flatMap { response in
            response.isSuccess ? .success(response) : .failure(FetchError.httpStatus(response))
        }
    }
}

extension Result where Success == Response, Failure == any Error {
    /// This result with a status other than 2xx turned into ``FetchError/Code-swift.enum/httpStatus``
    /// (carrying the response), for code that treats only 2xx as success.
    public func requiringSuccess() -> Result<Response, any Error> {
        flatMap { response in
            response.isSuccess ? .success(response) : .failure(FetchError.httpStatus(response))
        }
    }
}

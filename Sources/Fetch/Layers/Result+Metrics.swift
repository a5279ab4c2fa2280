extension Result where Success == Response, Failure == any Error {
    /// The result with `change` made to the response's metrics; a failure as it is.
    func recordingMetrics(_ change: (inout ResponseMetrics) -> Void) -> Self {
        map { response in
            var response = response
            change(&response.metrics)
            return response
        }
    }
}

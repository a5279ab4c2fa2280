extension Result where Success == Response, Failure == any Error {
    func recordingMetrics(_ change: (inout ResponseMetrics) -> Void) -> Self {
        map { response in
            var response = response
            change(&response.metrics)
            return response
        }
    }
}

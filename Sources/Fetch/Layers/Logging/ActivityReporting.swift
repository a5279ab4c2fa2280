/// Hears when calls start and end (activity indicators, metrics, tracing); attach one with
/// ``RequestPerforming/reportingActivity(to:)``. ``requestStarted(_:)`` and ``requestEnded(_:result:)`` are called
/// exactly once each per call, in that order, also when it is cancelled.
public protocol ActivityReporting: Sendable {
    /// A call started.
    func requestStarted(_ request: any Request)
    /// A call ended with `result`.
    func requestEnded(_ request: any Request, result: Result<Response, any Error>)
}

struct ActivityReportingLayer: Layer {
    let reporter: any ActivityReporting

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        reporter.requestStarted(request)
        return next.perform(request) { [reporter] result in
            reporter.requestEnded(request, result: result)
            completion(result)
        }
    }
}

extension RequestPerforming {
    /// This performer, reporting every call's start and end to `reporter`.
    public func reportingActivity(to reporter: any ActivityReporting) -> LayeredPerformer {
        layered(ActivityReportingLayer(reporter: reporter))
    }
}

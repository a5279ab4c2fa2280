import Foundation
import Fetch
import FetchTesting

/// A spy that says its completions run on a queue of its own, as `Session` does, so that a
/// test can tell whether a completion arrived there (``isOnQueue``).
struct QueuedSpy: RequestPerforming {
    /// Marks the queues of every `QueuedSpy`.
    private static let key = DispatchSpecificKey<Bool>()

    let spy: SpyPerformer
    let queue: DispatchQueue

    init(_ spy: SpyPerformer) {
        self.spy = spy
        queue = DispatchQueue(label: "QueuedSpy")
        queue.setSpecific(key: Self.key, value: true)
    }

    /// Whether the code that asks runs on the queue of a `QueuedSpy`.
    static var isOnQueue: Bool { DispatchQueue.getSpecific(key: key) == true }

    func perform(
        _ request: any Request, completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        spy.perform(request, completion: completion)
    }

    func completionQueue(for request: any Request) -> DispatchQueue? { queue }
}

import Dispatch
import Testing
import Fetch
import TestSupport

struct DispatchQueueSchedulerTests {
    @Test func workRunsOnTheGivenQueue() async throws {
        // Given a scheduler over a labelled queue
        let queue = DispatchQueue(label: "scheduler-test")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "scheduler-test")
        let scheduler: any Scheduler = DispatchQueueScheduler(queue: queue)
        // When work is scheduled with no delay
        let label = try await within("the scheduled work") {
            await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                scheduler.schedule(after: .zero) { continuation.resume(returning: DispatchQueue.getSpecific(key: key)) }
            }
        }
        // Then it ran, on that queue
        #expect(label == "scheduler-test")
    }
}

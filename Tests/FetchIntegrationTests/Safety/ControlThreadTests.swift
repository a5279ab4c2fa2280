import Foundation
import Testing
@testable import Fetch
import TestSupport

/// A session's control thread ends once its session is gone; a request that still queues a job then (the answer to a
/// 401's challenge, queued after the 401 completed the call and the caller let the session go) gets a new thread.
struct ControlThreadTests {
    /// Kept in a thread's dictionary: signals `ended` when the thread ends and lets it go.
    final class ThreadEnd: Sendable {
        let ended: DispatchSemaphore
        init(_ ended: DispatchSemaphore) { self.ended = ended }
        deinit { ended.signal() }
    }

    @Test func aJobQueuedAfterTheThreadEndedStillRuns() async throws {
        // Given a control thread that was stopped and whose thread has ended
        let control = ControlThread()
        try await offThePool {
            let ended = DispatchSemaphore(value: 0)
            control.async { Thread.current.threadDictionary["ControlThreadTests"] = ThreadEnd(ended) }
            control.stop()
            try ended.wait(within: standardBound, "the end of the control thread")
        }

        // When a job comes after it
        let ran = try await within("the job queued after the end") {
            await withCheckedContinuation { continuation in control.async { continuation.resume(returning: true) } }
        }

        // Then it runs
        #expect(ran)
    }
}

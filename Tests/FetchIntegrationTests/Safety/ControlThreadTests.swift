import Foundation
import Testing
@testable import Fetch
import TestSupport

/// A session's control thread ends once its session is gone; a request that still queues a job then (the answer to a
/// 401's challenge, queued after the 401 completed the call and the caller let the session go) gets a new thread.
struct ControlThreadTests {
    /// Signals when the thread whose dictionary holds it ends.
    final class ThreadEnd: Sendable {
        let ended = DispatchSemaphore(value: 0)
        deinit { ended.signal() }
    }

    @Test func aJobQueuedAfterTheThreadEndedStillRuns() async throws {
        // Given a control thread that was stopped and whose thread has ended
        let control = ControlThread()
        let ended = try await within("the end of the control thread") {
            try await offThePool {
                let end = DispatchSemaphore(value: 0)
                control.async {
                    let marker = ThreadEnd()
                    Thread.current.threadDictionary["ControlThreadTests"] = marker
                    DispatchQueue.global().async { [ended = marker.ended] in
                        ended.wait()
                        end.signal()
                    }
                }
                control.stop()
                return end.wait(timeout: .now() + 30) == .success
            }
        }
        try #require(ended)

        // When a job comes after it
        let ran = try await within("the job queued after the end") {
            await withCheckedContinuation { continuation in control.async { continuation.resume(returning: true) } }
        }

        // Then it runs
        #expect(ran)
    }
}

import Foundation
import Testing
@testable import Fetch

struct DeliveryQueueTests {
    @Test func callbackWaitingForURLSessionTurnsBackpressureOff() {
        // Given a delivery queue that is full (held, one callback queued, high water 1) and
        // makes a new callback wait up to 10 s for room
        let queue = DeliveryQueue(highWater: 1, lowWater: 0, longestWait: 10)
        queue.isSuspended = true
        queue.addOperation {}
        let ran = Recorder<Int>()
        let clock = ContinuousClock()
        let start = clock.now
        // When a callback is added while another one waits for URLSession (as a cancel does)
        queue.withoutBackpressure { queue.addOperation { ran.record(2) } }
        let elapsed = clock.now - start
        // Then it is queued at once instead of waiting for room that the waiting callback
        // would never make
        #expect(elapsed < .seconds(5))
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.all == [2])
    }
}

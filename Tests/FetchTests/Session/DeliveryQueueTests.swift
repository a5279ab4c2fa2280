import Foundation
import Testing
@testable import Fetch

struct DeliveryQueueTests {
    @Test func callbackWaitingForURLSessionTurnsBackpressureOff() {
        // Given a delivery queue that is full (held, one callback queued, high water 1) and
        // makes a new callback wait up to 10 s for room
        let queue = DeliveryQueue(highWater: 1, lowWater: 0, longestWait: 10)
        queue.serial.suspend()
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
        queue.serial.resume()
        queue.serial.sync {}
        #expect(ran.all == [2])
    }

    @Test func callbacksRunInOrderOnTheSerialQueueAndKnowIt() {
        // Given a delivery queue
        let queue = DeliveryQueue()
        let ran = Recorder<Int>()
        let inside = Recorder<Bool>()
        // When callbacks are added, and an Operation the other way
        for index in 0..<100 {
            queue.addOperation {
                ran.record(index)
                inside.record(DeliveryQueue.running === queue)
            }
        }
        queue.addOperation(BlockOperation { ran.record(100) })
        queue.waitUntilAllOperationsAreFinished()
        queue.serial.sync {}
        // Then they ran one by one in the order they came, each knowing its queue, and
        // nothing outside a callback takes itself for one
        #expect(ran.all == Array(0...100))
        #expect(inside.all == Array(repeating: true, count: 100))
        #expect(DeliveryQueue.running == nil)
    }
}

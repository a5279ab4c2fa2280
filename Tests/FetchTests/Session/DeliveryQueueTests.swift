import Foundation
import Testing
@testable import Fetch

struct DeliveryQueueTests {
    @Test func aFullQueueHoldsURLSessionUntilItDrainsAndNothingTurnsThatOff() {
        // Given a delivery queue that is full (held, one callback queued, high water 1) and
        // makes a new callback wait up to 10 s for room
        let queue = DeliveryQueue(highWater: 1, lowWater: 0, longestWait: 10)
        queue.serial.suspend()
        let ran = Recorder<Int>()
        queue.addOperation { ran.record(1) }
        // When URLSession's thread adds another one
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            queue.addOperation { ran.record(2) }
            returned.signal()
        }
        // Then it is held while the queue is full, and goes on once the queue drains
        let heldWhileFull = returned.wait(timeout: .now() + .milliseconds(100)) == .timedOut
        queue.serial.resume()
        let wentOn = returned.wait(timeout: .now() + 5) == .success
        queue.serial.sync {}
        #expect(heldWhileFull)
        #expect(wentOn)
        #expect(ran.all == [1, 2])
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

import Foundation
import Testing
@testable import Fetch
import TestSupport

struct DeliveryQueueTests {
    @Test func addingNeverWaitsWhileAnotherCallbackRuns() throws {
        // Given a delivery queue running a callback on another thread, until it is let go
        let queue = DeliveryQueue()
        let ran = Recorder<Int>()
        let running = try RunningCallback(on: queue) { ran.record(0) }
        // When URLSession's thread adds a thousand more meanwhile
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for index in 1...1000 { queue.addOperation { ran.record(index) } }
            returned.signal()
        }
        // Then every `addOperation` returned while the first callback still ran, and once it
        // ends they all run, in order
        let neverWaited = returned.wait(timeout: .now() + 10) == .success
        try running.finish()
        queue.waitUntilAllOperationsAreFinished()
        queue.serial.sync {}
        #expect(neverWaited)
        #expect(ran.all == Array(0...1000))
    }

    @Test func aCallbackRunsAtOnceOnTheAddingThreadWhenNoneIsQueued() {
        // Given an idle delivery queue
        let queue = DeliveryQueue()
        let ran = Recorder<Int>()
        // When callbacks are added one after another on this thread
        for index in 0..<10 {
            queue.addOperation {
                ran.record(index)
                #expect(!DeliveryQueue.isRunning)
            }
            // Then each has run before `addOperation` returns, here, without a hop
            #expect(ran.all == Array(0...index))
        }
    }

    @Test func callbacksAddedWhileOneRunsQueueInOrderOnTheSerialQueueAndKnowIt() throws {
        // Given a delivery queue running a callback on another thread
        let queue = DeliveryQueue()
        let ran = Recorder<Int>()
        let inside = Recorder<Bool>()
        let running = try RunningCallback(on: queue) { ran.record(0) }
        // When more callbacks are added meanwhile, and an Operation the other way
        for index in 1..<100 {
            queue.addOperation {
                ran.record(index)
                inside.record(DeliveryQueue.isRunning)
            }
        }
        queue.addOperation(BlockOperation { ran.record(100) })
        try running.finish()
        queue.waitUntilAllOperationsAreFinished()
        queue.serial.sync {}
        // Then they ran one by one in the order they came, after the running one, each
        // knowing its queue; the Operation ran too; nothing outside a callback takes itself for one
        #expect(ran.all.filter { $0 != 100 } == Array(0..<100))
        #expect(ran.all.contains(100))
        #expect(inside.all == Array(repeating: true, count: 99))
        #expect(!DeliveryQueue.isRunning)
    }
}

/// A callback added to a delivery queue from a thread of its own, which runs there (the queue
/// was idle) and stays running until `finish()`: meanwhile the queue counts it as queued.
private struct RunningCallback {
    private let release = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the callback and returns once it runs; `last` runs when it is let go.
    init(on queue: DeliveryQueue, then last: @escaping @Sendable () -> Void) throws {
        let started = DispatchSemaphore(value: 0)
        let (release, finished) = (release, finished)
        Thread.detachNewThread {
            queue.addOperation {
                started.signal()
                _ = release.wait(timeout: .now() + 60)  // (the test lets it go long before)
                last()
            }
            finished.signal()
        }
        try started.wait(within: standardBound, "the running callback's start")
    }

    /// Lets the callback end, and waits until `addOperation` on its thread has returned.
    func finish() throws {
        release.signal()
        try finished.wait(within: standardBound, "addOperation's return on the running callback's thread")
    }
}

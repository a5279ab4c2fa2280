import Foundation
import Testing
@testable import Fetch

/// A stream's buffer asks the performer to stop reading when its reader is behind, and
/// the delivery queue holds URLSession while it does.
struct StreamBackpressureTests {
    @Test func pressureRisesWithUnreadBytesAndFallsOnlyAtAQuarterOrAtTheEnd() async throws {
        // Given a pull sink of 1,000 bytes whose pressure changes are recorded
        let sink = StreamSink(bufferSize: 1000, acceptsAnyStatus: false, reader: .pull)
        let changes = Recorder<String>()
        sink.onPressure { changes.record("\($0)→\($1)") }
        sink.open(Response(status: 200))

        // When 1,000 bytes arrive, then 1,000 more, then the reader takes chunks
        for _ in 0..<10 { sink.receive(Data(count: 100)) }
        for _ in 0..<10 { sink.receive(Data(count: 100)) }
        for _ in 0..<17 { _ = try await sink.next() }
        let beforeQuarter = changes.all
        _ = try await sink.next()

        // Then it went soft at the buffer size, hard at twice it, stayed up until a quarter
        // was left, and dropped at once
        #expect(beforeQuarter == ["none→soft", "soft→hard"])
        #expect(changes.all == ["none→soft", "soft→hard", "hard→none"])
    }

    @Test func theEndOrACancelReleasesThePressure() {
        // Given two sinks with a full buffer
        let ended = StreamSink(bufferSize: 10, acceptsAnyStatus: false, reader: .pull)
        let cancelled = StreamSink(bufferSize: 10, acceptsAnyStatus: false, reader: .pull)
        let changes = Recorder<String>()
        for sink in [ended, cancelled] {
            sink.onPressure { changes.record("\($1)") }
            sink.open(Response(status: 200))
            sink.receive(Data(count: 10))
        }

        // When one ends with unread bytes and the other is cancelled
        ended.finish(.success(Response(status: 200)))
        cancelled.cancel()

        // Then both let go: nothing more will be read for them
        #expect(changes.all == ["soft", "soft", "none", "none"])
    }

    @Test func aHardHoldWaitsPastTheLongestWaitUntilReleased() {
        // Given a delivery queue with a 50 ms longest wait, held hard by a stream
        let queue = DeliveryQueue(highWater: 128, lowWater: 32, longestWait: 0.05)
        queue.hold(from: .none, to: .hard)
        let returned = DispatchSemaphore(value: 0)

        // When URLSession's thread adds a callback
        Thread.detachNewThread {
            queue.addOperation {}
            returned.signal()
        }

        // Then it waits well past the longest wait, and goes on once the hold is released
        let heldPastLongestWait = returned.wait(timeout: .now() + .milliseconds(300)) == .timedOut
        queue.hold(from: .hard, to: .none)
        #expect(heldPastLongestWait)
        #expect(returned.wait(timeout: .now() + 5) == .success)
    }

    @Test func aSoftHoldWaitsAtMostTheLongestWait() {
        // Given a delivery queue with a 50 ms longest wait, held softly by a stream
        let queue = DeliveryQueue(highWater: 128, lowWater: 32, longestWait: 0.05)
        queue.hold(from: .none, to: .soft)
        let started = DispatchTime.now()

        // When a callback is added
        queue.addOperation {}

        // Then it waited, but went on by itself
        let waited = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        #expect(waited >= 0.04)
        queue.hold(from: .soft, to: .none)
    }
}

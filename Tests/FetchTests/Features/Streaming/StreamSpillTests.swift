import Foundation
import Testing
@testable import Fetch
import TestSupport

/// A stream's sink keeps what its reader has not taken (in memory, then in an unlinked
/// temporary file) and never asks the performer to wait; a reader too far behind gets
/// everything kept, then a named error, and the call is stopped.
struct StreamSpillTests {
    /// `count` chunks of 1,000 bytes, chunk `i` filled with `i % 256`.
    static func chunks(_ count: Int) -> [Data] {
        (0..<count).map { Data(repeating: UInt8(truncatingIfNeeded: $0), count: 1000) }
    }

    static func sink(buffer: Int = 2000, spill: Int, reader: StreamSink.Reader = .pull, directory: String? = nil)
        -> (StreamSink, CancellationHandle)
    {
        let sink = StreamSink(
            bufferSize: buffer, spillLimit: spill, acceptsAnyStatus: false, reader: reader,
            spillDirectory: directory ?? NSTemporaryDirectory())
        let call = CancellationHandle()
        sink.cancelling(call)
        sink.open(Response(status: 200))
        return (sink, call)
    }

    @Test func aReaderThatStartsLateGetsEveryByteInOrderFromMemoryAndTheFile() async throws {
        // Given a sink with 2,000 bytes of memory and 1 MiB of spill file
        let (sink, call) = Self.sink(spill: 1 << 20)

        // When 600 chunks (600,000 bytes) arrive before the reader reads anything, then the end
        for chunk in Self.chunks(600) { sink.receive(chunk) }
        sink.finish(.success(Response(status: 200)))
        var received = Data()
        while let chunk = try await sink.nextChunk() { received.append(chunk) }

        // Then every byte came, in order, and the call was never stopped
        #expect(received == Self.chunks(600).reduce(Data(), +))
        #expect(!call.isCancelled)
    }

    @Test func aReaderTooFarBehindGetsWhatWasKeptThenBodyTooLargeAndTheCallIsStopped() async throws {
        // Given a sink with 2,000 bytes of memory and 300,000 bytes of spill file
        let (sink, call) = Self.sink(spill: 300_000)

        // When 600 chunks arrive before the reader reads anything
        for chunk in Self.chunks(600) { sink.receive(chunk) }
        var received = Data()
        let error = await #expect(throws: FetchError.self) {
            while let chunk = try await sink.nextChunk() { received.append(chunk) }
        }

        // Then the call was stopped at once, the reader got the first 302,000 bytes whole and
        // in order, then bodyTooLarge, which says what was kept
        #expect(call.isCancelled)
        #expect(received == Self.chunks(302).reduce(Data(), +))
        #expect(error?.code == .bodyTooLarge)
        #expect(error?.reason.contains("fell behind") == true)
        #expect(try await sink.nextChunk() == nil)
    }

    @Test func aSpillLimitOfZeroEndsTheStreamOnceMemoryIsFull() async throws {
        // Given a sink that keeps no file
        let (sink, call) = Self.sink(buffer: 1000, spill: 0)

        // When two chunks arrive, and the end after them
        for chunk in Self.chunks(2) { sink.receive(chunk) }
        sink.finish(.success(Response(status: 200)))
        let first = try await sink.nextChunk()

        // Then the first is read, the second overflowed, and the end is the overflow, not
        // the call's success
        #expect(first == Self.chunks(1)[0])
        #expect(call.isCancelled)
        await #expect(throws: FetchError.self) { _ = try await sink.nextChunk() }
    }

    @Test func aSpillFileThatCannotBeMadeEndsTheStreamWithAFileErrorAfterTheMemory() async throws {
        // Given a sink whose temporary directory does not exist
        let (sink, call) = Self.sink(buffer: 1000, spill: 1 << 20, directory: "/nonexistent-\(UUID().uuidString)")

        // When enough arrives to be written to the file
        for chunk in Self.chunks(300) { sink.receive(chunk) }
        let first = try await sink.nextChunk()
        let error = await #expect(throws: FetchError.self) { _ = try await sink.nextChunk() }

        // Then the chunk in memory came, then the file error; the call was stopped
        #expect(first == Self.chunks(1)[0])
        #expect(error?.code == .file)
        #expect(error?.reason.contains("could not be made") == true)
        #expect(call.isCancelled)
    }

    @Test func cancellingDropsWhatWasSpilledAndIgnoresWhatStillArrives() async throws {
        // Given a sink with bytes in memory and in its file
        let (sink, call) = Self.sink(spill: 1 << 20)
        for chunk in Self.chunks(600) { sink.receive(chunk) }

        // When the reader cancels, and more arrives
        sink.cancel()
        sink.receive(Data(count: 1000))

        // Then the call is stopped and the reader gets cancelled, not the kept bytes
        #expect(call.isCancelled)
        let error = await #expect(throws: FetchError.self) { _ = try await sink.nextChunk() }
        #expect(error?.code == .cancelled)
        #expect(sink.hasEnded)
    }

    @Test func aPushReaderOnAStoppedQueueGetsEverythingInOrderOnceItRuns() {
        // Given a push sink whose callbacks' queue is suspended
        let target = DispatchQueue(label: "test.stopped-reader")
        target.suspend()
        let received = Recorder<Data>()
        let ends = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        let (sink, _) = Self.sink(
            spill: 1 << 20,
            reader: .push(
                head: nil, chunk: { received.record($0) },
                completion: { result in
                    ends.record((try? result.get()).map { "\($0.status)" } ?? "error")
                    done.signal()
                }))
        sink.deliver(on: target)

        // When 600 chunks and the end arrive, and only then the queue runs
        for chunk in Self.chunks(600) { sink.receive(chunk) }
        sink.finish(.success(Response(status: 200)))
        target.resume()

        // Then every byte came in order, then the completion once
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(received.all.reduce(Data(), +) == Self.chunks(600).reduce(Data(), +))
        #expect(ends.all == ["200"])
    }

    @Test func aPushReaderTooFarBehindCompletesWithBodyTooLargeAfterTheKeptChunks() {
        // Given a push sink on a suspended queue with 2,000 bytes of memory and no file
        let target = DispatchQueue(label: "test.stopped-reader")
        target.suspend()
        let received = Recorder<Int>()
        let ends = Recorder<FetchError.Code>()
        let done = DispatchSemaphore(value: 0)
        let (sink, call) = Self.sink(
            spill: 0,
            reader: .push(
                head: nil, chunk: { received.record($0.count) },
                completion: { result in
                    if case .failure(let error as FetchError) = result { ends.record(error.code) }
                    done.signal()
                }))
        sink.deliver(on: target)

        // When 5 chunks arrive, then the call's own end (cancelled, as the sink stopped it)
        for chunk in Self.chunks(5) { sink.receive(chunk) }
        sink.finish(.failure(FetchError.cancelled()))
        target.resume()

        // Then the first chunk, handed to the reader's waiting take as a loop's would be, and
        // the two kept chunks came, then bodyTooLarge once
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(call.isCancelled)
        #expect(received.all == [1000, 1000, 1000])
        #expect(ends.all == [.bodyTooLarge])
    }
}

extension StreamSink {
    /// The reader's next chunk (`nil` at the end), or ``DidNotFinish`` when none came in time.
    func nextChunk(file: StaticString = #filePath, line: UInt = #line) async throws -> Data? {
        try await within(standardBound, "the stream's next chunk", file: file, line: line) { try await self.next() }
    }
}

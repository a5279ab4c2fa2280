import Foundation
import Testing
@testable import Fetch

/// The buffer of a stream as a pure value: memory first, then the spill file, then the end.
struct StreamBufferTests {
    static func bytes(_ value: UInt8, _ count: Int) -> Data { Data(repeating: value, count: count) }

    @Test func chunksStayInMemoryUntilTheMemoryLimitIsReached() {
        // Given a buffer of 10 bytes in memory
        var buffer = StreamBuffer(memoryLimit: 10, spillLimit: 100, writeSize: 4, readSize: 4)

        // When 6 bytes arrive, then 6 more (the second chunk passes the limit)
        let first = buffer.append(Self.bytes(1, 6))
        let second = buffer.append(Self.bytes(2, 6))

        // Then both are kept in memory: one chunk may pass the limit, nothing is spilled
        #expect(first == .kept)
        #expect(second == .kept)
        #expect(buffer.memoryBytes == 12)
        #expect(!buffer.isSpilling)
        #expect(buffer.unread == 12)
    }

    @Test func pastTheMemoryLimitChunksAreGatheredThenWrittenInOrder() {
        // Given a buffer whose memory is full
        var buffer = StreamBuffer(memoryLimit: 4, spillLimit: 100, writeSize: 6, readSize: 4)
        _ = buffer.append(Self.bytes(1, 4))

        // When 3 bytes arrive, then 3 more, then 2
        let gathered = buffer.append(Self.bytes(2, 3))
        let written = buffer.append(Self.bytes(3, 3))
        let next = buffer.append(Self.bytes(4, 2))

        // Then the first 6 are written at offset 0 once gathered, and the next are gathered
        // behind them
        #expect(gathered == .kept)
        #expect(written == .write(Self.bytes(2, 3) + Self.bytes(3, 3), at: 0))
        #expect(next == .kept)
        #expect(buffer.fileWritten == 6)
        #expect(buffer.gathered == Self.bytes(4, 2))
        #expect(buffer.unread == 12)
    }

    @Test func onceSpillingAChunkGoesBehindTheFileEvenWhenMemoryHasRoom() {
        // Given a buffer with bytes in its file and its memory emptied by the reader
        var buffer = StreamBuffer(memoryLimit: 4, spillLimit: 100, writeSize: 2, readSize: 8)
        _ = buffer.append(Self.bytes(1, 4))
        _ = buffer.append(Self.bytes(2, 2))
        _ = buffer.next()

        // When a chunk arrives
        let arrival = buffer.append(Self.bytes(3, 2))

        // Then it is written behind the file's bytes, not put in memory ahead of them
        #expect(arrival == .write(Self.bytes(3, 2), at: 2))
        #expect(buffer.memoryBytes == 0)
    }

    @Test func theReaderGetsMemoryThenTheFileInReadsThenTheGatheredBytes() {
        // Given 4 bytes in memory, 6 in the file and 1 gathered
        var buffer = StreamBuffer(memoryLimit: 4, spillLimit: 100, writeSize: 6, readSize: 4)
        _ = buffer.append(Self.bytes(1, 4))
        _ = buffer.append(Self.bytes(2, 6))
        _ = buffer.append(Self.bytes(3, 1))

        // When the reader takes everything
        var taken: [StreamBuffer.Next] = []
        while case let next = buffer.next(), next != .none { taken.append(next) }

        // Then memory comes first, then the file in reads of at most 4 bytes (the last one
        // empties it), then the gathered byte
        #expect(
            taken == [
                .chunk(Self.bytes(1, 4)), .read(at: 0, count: 4, thenEmpty: false),
                .read(at: 4, count: 2, thenEmpty: true), .chunk(Self.bytes(3, 1)),
            ])
        #expect(buffer.unread == 0)
        #expect(buffer.fileWritten == 0)
    }

    @Test func theFileStartsAgainAtOffsetZeroOnceTheReaderHasReadItAll() {
        // Given a file of 4 bytes that the reader has read entirely
        var buffer = StreamBuffer(memoryLimit: 1, spillLimit: 6, writeSize: 4, readSize: 8)
        _ = buffer.append(Self.bytes(1, 1))
        _ = buffer.append(Self.bytes(2, 4))
        _ = buffer.next()
        let read = buffer.next()
        let intoMemory = buffer.append(Self.bytes(3, 1))

        // When more than what was left of the limit arrives (4 bytes: 4 + 4 > 6 before)
        let arrival = buffer.append(Self.bytes(4, 4))

        // Then, with nothing spilled, a byte went to memory again, and the file starts
        // again at offset 0, within the limit
        #expect(read == .read(at: 0, count: 4, thenEmpty: true))
        #expect(intoMemory == .kept)
        #expect(buffer.memoryBytes == 1)
        #expect(arrival == .write(Self.bytes(4, 4), at: 0))
    }

    @Test func aChunkThatWouldPassTheSpillLimitOverflowsAndIsNotKept() {
        // Given a buffer with 2 bytes of memory and a file of at most 5
        var buffer = StreamBuffer(memoryLimit: 2, spillLimit: 5, writeSize: 4, readSize: 4)
        _ = buffer.append(Self.bytes(1, 2))
        _ = buffer.append(Self.bytes(2, 4))

        // When 2 bytes arrive (4 + 2 > 5), then 1 (which fits)
        let over = buffer.append(Self.bytes(3, 2))
        let fits = buffer.append(Self.bytes(4, 1))

        // Then the first overflows and changes nothing; what fits is still kept
        #expect(over == .overflow)
        #expect(fits == .kept)
        #expect(buffer.unread == 7)
    }

    @Test func noSpillLimitOverflowsAsSoonAsMemoryIsFull() {
        // Given a buffer with no file
        var buffer = StreamBuffer(memoryLimit: 2, spillLimit: 0)
        _ = buffer.append(Self.bytes(1, 2))

        // When one more byte arrives
        let arrival = buffer.append(Self.bytes(2, 1))

        // Then it overflows
        #expect(arrival == .overflow)
    }

    @Test func removingAllDropsEveryPart() {
        // Given a buffer with bytes in memory, in its file and gathered
        var full = StreamBuffer(memoryLimit: 1, spillLimit: 100, writeSize: 2, readSize: 4)
        _ = full.append(Self.bytes(1, 1))
        _ = full.append(Self.bytes(2, 2))
        _ = full.append(Self.bytes(3, 1))
        #expect(full.isSpilling)

        // When it is emptied
        full.removeAll()

        // Then nothing is left to read
        #expect(full.next() == .none)
        #expect(full.unread == 0)
        #expect(!full.isSpilling)
    }

    @Test func anEmptyChunkChangesNothing() {
        // Given a buffer with a full memory
        var buffer = StreamBuffer(memoryLimit: 1, spillLimit: 0)
        _ = buffer.append(Self.bytes(1, 1))

        // When an empty chunk arrives
        let arrival = buffer.append(Data())

        // Then it is kept as nothing, not an overflow
        #expect(arrival == .kept)
        #expect(buffer.unread == 1)
    }

    @Test func manyChunksComeOutWholeAndInOrder() {
        // Given a buffer that spills early, fed 1,000 numbered chunks while the reader takes
        // one piece after every third chunk
        var buffer = StreamBuffer(memoryLimit: 100, spillLimit: 1 << 20, writeSize: 64, readSize: 50)
        var file = Data()
        var out = Data()
        func take(_ next: StreamBuffer.Next) {
            switch next {
            case .chunk(let data): out.append(data)
            case .read(let offset, let count, let thenEmpty):
                out.append(file[offset..<offset + count])
                if thenEmpty { file = Data() }
            case .none: break
            }
        }
        var sent = Data()

        // When they all go through
        for index in 0..<1000 {
            let chunk = Data((0..<(index % 7 + 1)).map { UInt8(truncatingIfNeeded: index + $0) })
            sent.append(chunk)
            if case .write(let bytes, let offset) = buffer.append(chunk) {
                #expect(offset == file.count)
                file.append(bytes)
            }
            if index % 3 == 0 { take(buffer.next()) }
        }
        while case let next = buffer.next(), next != .none { take(next) }

        // Then the reader got every byte, in order
        #expect(out == sent)
    }
}

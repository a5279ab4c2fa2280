import Foundation
import Testing
@testable import Fetch

/// The life of a stream without a network, a file or a reader: every transition of
/// ``StreamMachine``, and a cancel, a deadline and a failure in every phase.
struct StreamMachineTests {
    /// The machine under test: a reader waits with a name.
    typealias Stream = StreamMachine<String>

    /// Where a machine is brought before the event under test.
    enum Stage: String, CaseIterable, CustomTestStringConvertible {
        case awaitingHead, streaming, spilling, ending, ended, stopped
        /// The stage's name in test results.
        var testDescription: String { rawValue }
    }

    /// A machine with 2 bytes of memory and 4 of spill file, brought to `stage`.
    static func stream(at stage: Stage) -> Stream {
        var machine = Stream(
            buffer: StreamBuffer(memoryLimit: 2, spillLimit: 4, writeSize: 2, readSize: 2), acceptsAnyStatus: false)
        let steps: [Stream.Event] =
            switch stage {
            case .awaitingHead: []
            case .streaming: [.opened(Response(status: 200)), .received(Data("ab".utf8))]
            case .spilling: [.opened(Response(status: 200)), .received(Data("ab".utf8)), .received(Data("cd".utf8))]
            case .ending:
                [
                    .opened(Response(status: 200)), .received(Data("ab".utf8)),
                    .finished(.success(Response(status: 200))),
                ]
            case .ended: [.opened(Response(status: 200)), .finished(.success(Response(status: 200))), .take("r0")]
            case .stopped: [.opened(Response(status: 200)), .received(Data("ab".utf8)), .cancelled]
            }
        for step in steps { _ = machine.handle(step) }
        return machine
    }

    // MARK: The head

    @Test func anOfferedHeadIsCheckedNearestThePerformerFirst() {
        // Given two checks, added by the outer layer first
        var machine = Self.stream(at: .awaitingHead)
        _ = machine.addCheck { $0.headers["X-Outer"] = "1" }
        _ = machine.addCheck { $0.headers["X-Inner"] = "1" }
        // When a head is offered
        let checks = machine.offer()
        // Then both checks are asked for, the inner one first
        var head = Response(status: 200)
        try? checks[0](&head)
        #expect(head.headers["X-Inner"] == "1" && head.headers["X-Outer"] == nil)
        #expect(checks.count == 2)
    }

    @Test func anAcceptedHeadWakesItsWaitersAndTheBodyFlows() {
        // Given a stream waiting for its head
        var machine = Self.stream(at: .awaitingHead)
        // When a 200 is opened
        let effects = machine.run(.opened(Response(status: 200)))
        // Then the waiters get it, and the body goes to the reader
        #expect(effects == ["head 200"])
        #expect(machine.accepts && machine.head?.status == 200)
    }

    @Test func aStatusTheCallerDoesNotAcceptIsNotDelivered() {
        // Given a stream waiting for its head
        var machine = Self.stream(at: .awaitingHead)
        // When a 503 is opened, bytes arrive, and the call ends with it
        let open = machine.run(.opened(Response(status: 503)))
        let body = machine.run(.received(Data("x".utf8)))
        let end = machine.run(.finished(.success(Response(status: 503))))
        // Then nothing is delivered, and the head's waiters get httpStatus
        #expect(open.isEmpty && body.isEmpty && !machine.accepts)
        #expect(end == ["releaseCall", "head failed httpStatus"])
    }

    @Test func aRefusedHeadMakesTheCallsEndItsError() {
        // Given a head a check refused
        var machine = Self.stream(at: .awaitingHead)
        _ = machine.offer()
        _ = machine.handle(.refused(FetchError(.layer, reason: "no")))
        // When the call ends with the response
        let end = machine.run(.finished(.success(Response(status: 200))))
        // Then it ends with the check's error
        #expect(end == ["releaseCall", "head failed layer"])
    }

    @Test func aResponseThatWasNotStreamedIsTheHeadAndOneChunk() {
        // Given a stream whose performer does not stream, and a reader
        var machine = Self.stream(at: .awaitingHead)
        // When the call ends with a whole body in memory
        var response = Response(status: 200)
        response.body = Data("whole".utf8)
        let end = machine.run(.finished(.success(response)))
        // Then the head is out, and the reader gets the body, then the end
        #expect(end == ["releaseCall", "head 200"])
        #expect(machine.run(.take("r1")) == ["hand r1 5"])
        #expect(machine.run(.take("r2")) == ["hand r2 end"])
    }

    // MARK: The body

    @Test func aWaitingReaderGetsTheBytesAtOnce() {
        // Given a reader waiting on a stream under way
        var machine = Self.stream(at: .awaitingHead)
        _ = machine.handle(.opened(Response(status: 200)))
        let wait = machine.run(.take("r1"))
        // When bytes arrive
        let effects = machine.run(.received(Data("abc".utf8)))
        // Then they go straight to it
        #expect(wait.isEmpty)
        #expect(effects == ["hand r1 3"])
        #expect(machine.received == 3 && machine.read == 3)
    }

    @Test func bytesPastMemoryGoToTheSpillFileAndComeBackInOrder() {
        // Given a stream with 2 bytes of memory, already full
        var machine = Self.stream(at: .streaming)
        // When 2 more bytes arrive, then the reader reads twice
        let spill = machine.run(.received(Data("cd".utf8)))
        let first = machine.run(.take("r1"))
        let second = machine.run(.take("r2"))
        // Then they are written at offset 0, and read back after the memory's
        #expect(spill == ["spill 2 at 0"])
        #expect(first == ["hand r1 2"])
        #expect(second == ["read 2 at 0 then empty for r2"])
    }

    @Test func aReaderTooFarBehindGetsWhatWasKeptThenBodyTooLarge() {
        // Given a stream whose memory and spill file are full
        var machine = Self.stream(at: .spilling)
        _ = machine.handle(.received(Data("ef".utf8)))
        // When more arrives
        let effects = machine.run(.received(Data("g".utf8)))
        // Then the call is stopped, and the reader gets every kept byte, then the error
        #expect(effects == ["stopCall"])
        #expect(machine.run(.take("r1")) == ["hand r1 2"])
        #expect(machine.run(.take("r2")) == ["read 2 at 0 for r2"])
        #expect(machine.run(.take("r3")) == ["read 2 at 2 then empty for r3"])
        #expect(machine.run(.take("r4")) == ["hand r4 failed bodyTooLarge"])
        #expect(machine.run(.take("r5")) == ["hand r5 end"])
    }

    // MARK: Cancel, deadline, failure in every phase

    @Test(arguments: Stage.allCases)
    func aCancelDropsWhatIsKeptStopsTheCallAndWakesTheReader(stage: Stage) {
        // Given a stream in `stage`, and a reader waiting where one can
        var machine = Self.stream(at: stage)
        let alreadyStopped = machine.stoppedByReader
        // When its reader cancels, then bytes arrive
        let cancel = machine.run(.cancelled)
        let late = machine.run(.received(Data("zz".utf8)))
        // Then the spill file is dropped and the call stopped, once; nothing more is taken
        if alreadyStopped {
            #expect(cancel.isEmpty)
        } else {
            #expect(cancel == ["dropSpill", "stopCall", "head failed cancelled"])
        }
        #expect(late.isEmpty)
        #expect(machine.buffer.unread == 0)
        #expect(machine.hasEnded)
        let ended = if case .ended = machine.phase { true } else { false }
        #expect(machine.run(.take("r")) == [ended ? "hand r end" : "hand r failed cancelled"])
    }

    @Test(arguments: Stage.allCases)
    func aDeadlineEndsTheStreamAfterWhatIsKept(stage: Stage) {
        // Given a stream in `stage`
        var machine = Self.stream(at: stage)
        let before = machine.phase
        // When the call fails past its deadline
        let end = machine.run(.finished(.failure(FetchError(.deadlineExceeded, reason: "late"))))
        // Then the call's handle is let go; a stream still under way ends with the deadline
        switch before {
        case .ending, .ended:
            #expect(end == ["releaseCall"])
        case .awaitingHead, .streaming:
            #expect(end.first == "releaseCall")
            if !machine.stoppedByReader, case .awaitingHead = before {
                #expect(end.contains("head failed deadlineExceeded"))
            }
            var last = ""
            for number in 0..<5 { last = machine.run(.take("r\(number)")).first ?? "" }
            #expect(last == "hand r4 end" || last.hasSuffix("failed cancelled"))
        }
        #expect(machine.run(.received(Data("zz".utf8))).isEmpty)
    }

    @Test(arguments: Stage.allCases)
    func aFailedSpillEndsAStreamUnderWayWithTheFileError(stage: Stage) {
        // Given a stream in `stage`
        var machine = Self.stream(at: stage)
        let underWay = machine.accepts
        // When the spill file fails
        let effects = machine.run(.spillFailed(FetchError(.file, reason: "disk full")))
        // Then a stream under way stops its call, and its reader gets the memory, then the error
        if underWay {
            #expect(effects == ["stopCall"])
            #expect(machine.run(.take("r1")) == ["hand r1 2"])
            let next = machine.run(.take("r2"))
            if next.first?.hasPrefix("read") == true {
                // The file's bytes are gone: the owner says so, and the reader gets the error
                #expect(machine.run(.readFailed(nil, for: "r2")) == ["hand r2 failed file"])
            } else {
                #expect(next == ["hand r2 failed file"])
            }
        } else {
            #expect(effects.isEmpty)
        }
    }

    @Test func aFailedReadEndsTheStreamWithItsErrorAndStopsTheCall() {
        // Given a stream with bytes in its spill file, its call ended
        var machine = Self.stream(at: .spilling)
        _ = machine.handle(.finished(.success(Response(status: 200))))
        _ = machine.handle(.take("r1"))
        // When a read of the file for the next reader fails
        let effects = machine.run(.readFailed(FetchError(.file, reason: "I/O"), for: "r2"))
        // Then the call is stopped and that reader gets the error, then the end
        #expect(effects == ["stopCall", "hand r2 failed file"])
        #expect(machine.run(.take("r3")) == ["hand r3 end"])
    }
}

/// Thousands of random lives of a stream: exactly one end for the reader, bytes in order and
/// never after the end, and nothing after the end changes anything.
struct StreamMachineWalkTests {
    @Test func everyOrderOfEventsKeepsTheRules() {
        // Given 3,000 walks of up to 30 steps
        var random = TaskMachineWalkTests.SeededGenerator(state: 2026)
        var failures: [String] = []
        var (endedWalks, readBackWalks, deliveredWalks) = (0, 0, 0)
        for walk in 0..<3_000 {
            var machine = StreamMachineTests.Stream(
                buffer: StreamBuffer(memoryLimit: 2, spillLimit: 6, writeSize: 2, readSize: 1), acceptsAnyStatus: false)
            var (sent, gotten, ends, waiting) = (0, [UInt8](), 0, false)
            var file: [Int: UInt8] = [:]
            var readBack = false
            var steps: [String] = []
            func note(_ rule: String) { failures.append("walk \(walk) \(steps): \(rule)") }
            // When each walk runs
            for _ in 0..<30 {
                // The call's end, a cancel and a failed spill are rarer than the rest, so that
                // walks get far enough to spill and read back
                let terminal: [(String, StreamMachineTests.Stream.Event)] = [
                    ("cancel", .cancelled), ("end", .finished(.success(Response(status: 200)))),
                    ("fail", .finished(.failure(FetchError(.connectionLost, reason: "cut")))),
                    ("spillFailed", .spillFailed(FetchError(.file, reason: "full"))),
                ]
                var events: [(String, StreamMachineTests.Stream.Event)] = [("open", .opened(Response(status: 200)))]
                for _ in 0..<4 { events.append(("byte", .received(Data([UInt8(truncatingIfNeeded: sent + 1)])))) }
                for _ in 0..<2 { events.append(("take", .take("r"))) }
                if Int.random(in: 0..<8, using: &random) == 0 { events = terminal }
                let (name, event) = events[Int.random(in: 0..<events.count, using: &random)]
                if name == "take", waiting || ends > 0 { continue }
                steps.append(name)
                if name == "byte" { sent += 1 }
                let endedBefore = if case .ended = machine.phase { true } else { false }
                var answered = false
                var pending = machine.handle(event)
                // Then each effect keeps the rules (the owner's file is played here)
                while !pending.isEmpty {
                    switch pending.removeFirst() {
                    case .spill(let bytes, let offset):
                        for (index, byte) in bytes.enumerated() { file[offset + index] = byte }
                    case .read(let offset, let count, _, _):
                        let bytes = (offset..<offset + count).compactMap { file[$0] }
                        if bytes.count != count { note("read bytes never written") }
                        if ends > 0 { note("bytes after the end") }
                        (gotten, readBack, waiting, answered) = (gotten + bytes, true, false, true)
                    case .hand(_, .success(let data?)):
                        if ends > 0 { note("bytes after the end") }
                        gotten += data
                        (waiting, answered) = (false, true)
                    case .hand(_, _):
                        ends += 1
                        (waiting, answered) = (false, true)
                    case .head, .stopCall, .releaseCall, .dropSpill: break
                    }
                }
                if case .take = event, !answered { waiting = true }
                if endedBefore, case .ended = machine.phase {} else if endedBefore { note("moved after the end") }
            }
            // And the reader got bytes in the order they were sent, and at most one end
            if gotten != gotten.sorted() || Set(gotten).count != gotten.count { note("bytes out of order: \(gotten)") }
            if ends > 1 { note("\(ends) ends") }
            if ends == 1 { endedWalks += 1 }
            if readBack { readBackWalks += 1 }
            if !gotten.isEmpty { deliveredWalks += 1 }
        }
        #expect(failures.prefix(5) == [])
        // And the walks ended, read bytes back from the spill file and delivered bytes
        #expect(endedWalks > 500)
        #expect(readBackWalks > 100)
        #expect(deliveredWalks > 1_000)
    }
}

extension StreamMachine where Waiter == String {
    /// Whether a head is accepted: the reader has it, and the body is delivered.
    var accepts: Bool {
        if case .streaming = phase { return !stoppedByReader }
        return false
    }

    /// Handles `event` and describes the effects.
    mutating func run(_ event: Event) -> [String] {
        handle(event).map(\.summary)
    }
}

extension StreamMachine.Effect where Waiter == String {
    /// The effect in a few words, such as `hand r1 3` or `stopCall`.
    var summary: String {
        switch self {
        case .head(.success(let head)): "head \(head.status)"
        case .head(.failure(let error)): "head failed \((error as? FetchError)?.code.rawValue ?? "\(error)")"
        case .hand(let waiter, .success(let data?)): "hand \(waiter) \(data.count)"
        case .hand(let waiter, .success(nil)): "hand \(waiter) end"
        case .hand(let waiter, .failure(let error)):
            "hand \(waiter) failed \((error as? FetchError)?.code.rawValue ?? "\(error)")"
        case .spill(let data, let offset): "spill \(data.count) at \(offset)"
        case .read(let offset, let count, let thenEmpty, let waiter):
            "read \(count) at \(offset)\(thenEmpty ? " then empty" : "") for \(waiter)"
        case .dropSpill: "dropSpill"
        case .stopCall: "stopCall"
        case .releaseCall: "releaseCall"
        }
    }
}

import Foundation
import Testing
@testable import Fetch

/// The life of a transfer's partial file without a file: every transition of
/// ``TransferMachine``, and a cancel, a deadline and a failure in every phase.
struct TransferMachineTests {
    /// Where a machine is brought before the event under test.
    enum Stage: String, CaseIterable, CustomTestStringConvertible {
        case ready, writing, declined, whole, closed, stopped, settled
        /// The stage's name in test results.
        var testDescription: String { rawValue }
    }

    /// A resume point at 400 of 1,000 bytes, tagged `"v1"`, read from a partial file made for it.
    static let point: ResumePoint = {
        let folder = try! TemporaryFolder()
        let files = PartialFiles(finalURL: folder.file("big.bin"))
        try! Data(count: 400).write(to: files.bytesURL)
        try! files.write(PartialRecord(url: url, headers: ["ETag": "\"v1\""], length: 1000)!)
        return ResumePoint(files, for: url)!
    }()
    static let url = URL(string: "https://example.com/big.bin")!
    /// The head of a fresh, resumable 1,000-byte body.
    static let fresh = TransferMachine.Event.responded(
        status: 200, headers: ["ETag": "\"v1\"", "Content-Length": "1000"], length: 1000)

    /// A download brought to `stage`, resuming at ``point`` when `resuming`.
    static func download(at stage: Stage, resuming: Bool = false) -> TransferMachine {
        var machine = TransferMachine(downloads: true, url: url, asked: resuming ? point : nil)
        let steps: [TransferMachine.Event] =
            switch stage {
            case .ready: []
            case .writing: [fresh]
            case .declined: [.responded(status: 503, headers: [:], length: nil)]
            case .whole: []
            case .closed: [fresh, .writeFailed]
            case .stopped: [fresh, .stop(keeping: false)]
            case .settled: [fresh, .settle(status: 200)]
            }
        if stage == .whole {
            machine = TransferMachine(downloads: true, asked: point)
            _ = machine.handle(.responded(status: 416, headers: ["Content-Range": "bytes */400"], length: nil))
        }
        for step in steps { _ = machine.handle(step) }
        return machine
    }

    // MARK: Heads

    @Test func aFreshBodyIsWrittenFromTheFirstByte() {
        // Given a download with nothing on disk
        var machine = TransferMachine(downloads: true, url: Self.url)
        // When a 200 arrives
        let head = machine.run(Self.fresh)
        // Then the file is prepared for a fresh body with its record, with no report yet
        #expect(head == ["begin 0 recorded"])
        #expect(machine.phase == .writing)
        #expect(machine.expected == 1000 && machine.resumable)
    }

    @Test func aPartialAnswerContinuesTheFileAndReportsWhatIsThere() {
        // Given a download resuming at 400 bytes
        var machine = TransferMachine(downloads: true, asked: Self.point)
        // When a 206 for the rest arrives
        let head = machine.run(
            .responded(
                status: 206, headers: ["Content-Range": "bytes 400-999/1000", "ETag": "\"v1\""], length: 600))
        // Then the file is cut at 400 to append, and the 400 bytes already there are reported
        #expect(head == ["begin 400 recorded", "report 400 of 1000"])
        #expect(machine.received == 400 && machine.resumable)
    }

    @Test func aNon2xxBodyIsDeclinedAndLeavesTheFileAlone() {
        // Given a download with nothing on disk
        var machine = TransferMachine(downloads: true)
        // When a 503 arrives, bytes follow anyway, then the call settles
        let head = machine.run(.responded(status: 503, headers: [:], length: nil))
        let chunks = machine.run(.received(Data(count: 5), now: 1))
        let settle = machine.run(.settle(status: 503))
        // Then its body is declined (the task keeps it for the error), and nothing goes to or
        // moves the file
        #expect(head == ["decline"])
        #expect(machine.phase == .declined)
        #expect(chunks.isEmpty && settle.isEmpty)
    }

    @Test func a416ForTheWholeFileCompletesWithItAsA200() {
        // Given a download resuming a file that already holds the whole body
        var machine = Self.download(at: .whole)
        // When the 416's body arrives and the call settles
        let body = machine.run(.received(Data(count: 10), now: 1))
        let settle = machine.run(.settle(status: 416))
        // Then the body goes nowhere and the file is committed whole, checked at its length
        #expect(body.isEmpty)
        #expect(settle == ["commit 400 checked 400 whole"])
        #expect(machine.phase == .settled)
    }

    @Test func aHeadThatCannotContinueTheFileStartsOverWithAFreshOne() {
        // Given a download resuming at 400 bytes
        var machine = TransferMachine(downloads: true, asked: Self.point)
        // When a 206 of another version arrives, and a fresh file replaces the old one
        let head = machine.run(
            .responded(status: 206, headers: ["Content-Range": "bytes 400-999/1000", "ETag": "\"v2\""], length: 600))
        let closed = machine.phase
        let restart = machine.run(.restarted)
        // Then it starts over, takes nothing meanwhile, and waits for the next head with nothing to resume
        #expect(head == ["startOver"])
        #expect(closed == .closed)
        #expect(restart.isEmpty)
        #expect(machine.phase == .ready && !machine.resumable && machine.received == 0)
    }

    @Test func aContentRangeThatDoesNotMatchFailsTheRequest() {
        // Given a download resuming at 400 bytes
        var machine = TransferMachine(downloads: true, asked: Self.point)
        // When a 206 starts elsewhere
        let head = machine.run(
            .responded(status: 206, headers: ["Content-Range": "bytes 0-999/1000"], length: 1000))
        // Then the request fails, and no byte is taken
        #expect(head == ["fail badServerResponse"])
        #expect(machine.run(.received(Data(count: 3), now: 1)).isEmpty)
    }

    @Test func anUploadHasNoHeadToJudge() {
        // Given an upload
        var machine = TransferMachine(downloads: false, uploadLength: 10)
        // When a head arrives; Then nothing is done with it
        #expect(machine.run(Self.fresh).isEmpty)
        #expect(machine.phase == .ready)
    }

    // MARK: Bytes and progress

    @Test func bytesAreWrittenInOrderAndReportedAtMostEvery50Milliseconds() {
        // Given a download writing its body
        var machine = Self.download(at: .writing)
        // When three chunks arrive 10 ms apart, then a fourth 60 ms after the first
        let effects = [0, 10, 20, 60].flatMap { ms in
            machine.run(.received(Data(count: 100), now: UInt64(ms) * 1_000_000 + 1))
        }
        // Then every chunk is written, and two reports go out
        #expect(
            effects == [
                "write 100", "report 100 of 1000", "write 100", "write 100", "write 100", "report 400 of 1000",
            ])
    }

    @Test func aBodyLongerThanAnnouncedReportsNoTotal() {
        // Given a download of an announced 1,000 bytes, 1,000 of them written
        var machine = Self.download(at: .writing)
        _ = machine.run(.received(Data(count: 1000), now: 1))
        // When more arrive (a compressed body decodes to more)
        let effects = machine.run(.received(Data(count: 10), now: 100_000_000))
        // Then the report no longer names a total
        #expect(effects == ["write 10", "report 1010"])
    }

    @Test func anUploadReportsWhatWasSentThenTheWholeBodyOnSuccess() {
        // Given an upload of 10 bytes
        var machine = TransferMachine(downloads: false, uploadLength: 10)
        // When 4 bytes are sent, then it settles with a 200
        let sent = machine.run(.sent(total: 4, expected: 0, now: 1))
        let settle = machine.run(.settle(status: 200))
        // Then progress names the body's length, and the last report is the whole body
        #expect(sent == ["report 4 of 10"])
        #expect(settle == ["report finished 10"])
    }

    @Test func anUploadAnsweredEarlyReportsWhatWasSent() {
        // Given an upload of unknown length, 4 bytes sent
        var machine = TransferMachine(downloads: false)
        _ = machine.run(.sent(total: 4, expected: 9, now: 1))
        // When the server answers 413 before reading it all
        let settle = machine.run(.settle(status: 413))
        // Then the last report is what was sent
        #expect(settle == ["report finished 4"])
    }

    // MARK: The end, in every phase

    @Test(arguments: Stage.allCases)
    func aCancelSettlesTheFileOnceAndTakesNothingMore(stage: Stage) {
        // Given a download in `stage`, resumable
        var machine = Self.download(at: stage)
        let wasLive = machine.isLive
        let wasClosed = machine.phase == .closed
        let keeps = machine.resumable && !wasClosed
        // When the caller cancels keeping the partial file, then bytes and the end arrive
        let stop = machine.run(.stop(keeping: true))
        let late = machine.run(.received(Data(count: 5), now: 1)) + machine.run(Self.fresh)
        let settle = machine.run(.settle(status: 200))
        let close = machine.run(.close(keepingPartial: true))
        // Then the file is kept (discarded when a write failed) at once, nothing more is taken,
        // and the call fails as cancelled; a settled file is left alone
        if wasLive || wasClosed {
            #expect(stop == [keeps ? "keep" : "discard"])
            #expect(settle == ["fail cancelled"])
        } else {
            #expect(stop.isEmpty)
        }
        #expect(late.isEmpty && close.isEmpty)
        #expect(!machine.isLive)
    }

    @Test(arguments: Stage.allCases)
    func aDeadlineDeletesTheFile(stage: Stage) {
        // Given a download in `stage`
        var machine = Self.download(at: stage)
        let settledBefore = [.stopped, .settled].contains(machine.phase)
        // When its deadline passes: the call ends with an error that keeps no partial file
        let close = machine.run(
            .close(keepingPartial: PartialDownload.keeps(after: FetchError(.deadlineExceeded, reason: ""))))
        // Then the file is deleted, once
        #expect(close == (settledBefore ? [] : ["discard"]))
        #expect(machine.run(.close(keepingPartial: false)).isEmpty)
        #expect(!machine.isLive)
    }

    @Test(arguments: Stage.allCases)
    func aResumableFailureKeepsTheFileWhenItCanBeResumed(stage: Stage) {
        // Given a download in `stage`
        var machine = Self.download(at: stage)
        let before = machine.phase
        // When the connection is lost
        let close = machine.run(
            .close(keepingPartial: PartialDownload.keeps(after: FetchError(.connectionLost, reason: ""))))
        // Then a file that can be resumed is kept, one that cannot or a closed one (a failed
        // write) is deleted, and a settled one is left alone
        switch before {
        case .stopped, .settled: #expect(close.isEmpty)
        case .closed: #expect(close == ["discard"])
        default: #expect(close == [machine.resumable ? "keep" : "discard"])
        }
    }

    @Test(arguments: Stage.allCases)
    func aFailedWriteClosesTheTransfer(stage: Stage) {
        // Given a download in `stage`
        var machine = Self.download(at: stage)
        let before = machine.phase
        // When a write fails, and a chunk and the end follow
        _ = machine.run(.writeFailed)
        let late = machine.run(.received(Data(count: 5), now: 1))
        let settle = machine.run(.settle(status: 200))
        // Then nothing more is written, and a live transfer fails as stopped before it completed
        #expect(late.isEmpty)
        switch before {
        case .stopped: #expect(settle == ["fail cancelled"])
        default: #expect(settle == ["fail file"])
        }
    }
}

extension TransferMachine {
    /// Handles `event` and describes the effects.
    mutating func run(_ event: Event) -> [String] {
        handle(event).map(\.summary)
    }
}

extension TransferMachine.Effect {
    /// The effect in a few words, such as `write 100` or `report 400 of 1000`.
    var summary: String {
        switch self {
        case .begin(let offset, let record): "begin \(offset)" + (record == nil ? "" : " recorded")
        case .startOver: "startOver"
        case .fail(let error): "fail \(error.code.rawValue)"
        case .write(let data): "write \(data.count)"
        case .report(let report) where report.isFinished: "report finished \(report.completedBytes)"
        case .report(let report): "report \(report.completedBytes)" + (report.expectedBytes.map { " of \($0)" } ?? "")
        case .end(let keeping): keeping ? "keep" : "discard"
        case .commit(let length, let total, let whole):
            "commit \(total)" + (length.map { " checked \($0)" } ?? "") + (whole ? " whole" : "")
        case .decline: "decline"
        }
    }
}

/// Thousands of random lives of a transfer, in any order of events: the file is settled
/// exactly once, bytes are written in order and never after the end, and nothing after the
/// end changes anything.
struct TransferMachineWalkTests {
    @Test func everyOrderOfEventsKeepsTheRules() {
        // Given 3,000 walks of up to 16 steps, each picking any event
        var random = TaskMachineWalkTests.SeededGenerator(state: 2026)
        var failures: [String] = []
        var ended = 0
        for walk in 0..<3_000 {
            var machine = TransferMachine(
                downloads: !walk.isMultiple(of: 5), url: TransferMachineTests.url,
                asked: walk.isMultiple(of: 2) ? TransferMachineTests.point : nil,
                uploadLength: 10)
            var (chunk, lastWritten, ends, now) = (0, 0, 0, UInt64(1))
            var steps: [String] = []
            // When each walk runs
            for _ in 0..<16 {
                chunk += 1
                now += 20_000_000
                let events: [(String, TransferMachine.Event)] = [
                    ("fresh", TransferMachineTests.fresh),
                    ("fresh, not resumable", .responded(status: 200, headers: [:], length: nil)),
                    ("503", .responded(status: 503, headers: [:], length: nil)),
                    ("206", .responded(status: 206, headers: ["Content-Range": "bytes 400-999/1000"], length: 600)),
                    ("416", .responded(status: 416, headers: ["Content-Range": "bytes */400"], length: nil)),
                    ("chunk", .received(Data([UInt8(chunk)]), now: now)),
                    ("chunk", .received(Data([UInt8(chunk)]), now: now)),
                    ("sent", .sent(total: Int64(chunk), expected: 0, now: now)),
                    ("writeFailed", .writeFailed),
                    ("restarted", .restarted),
                    ("stop", .stop(keeping: Bool.random(using: &random))),
                    ("settle", .settle(status: 200)),
                    ("close", .close(keepingPartial: Bool.random(using: &random))),
                ]
                let (name, event) = events[Int.random(in: 0..<events.count, using: &random)]
                steps.append(name)
                let finishedBefore = [.stopped, .settled].contains(machine.phase)
                let (phase, received) = (machine.phase, machine.received)
                let effects = machine.handle(event)
                for effect in effects {
                    switch effect {
                    case .end, .commit: ends += 1
                    case .write(let data):
                        if ends > 0 { failures.append("walk \(walk) \(steps): written after the end") }
                        if Int(data[data.startIndex]) <= lastWritten {
                            failures.append("walk \(walk) \(steps): written out of order")
                        }
                        lastWritten = Int(data[data.startIndex])
                    case .begin, .startOver, .decline:
                        if ends > 0 { failures.append("walk \(walk) \(steps): \(effect.summary) after the end") }
                    case .report(let report) where !report.isFinished:
                        if ends > 0 { failures.append("walk \(walk) \(steps): progress after the end") }
                    case .report, .fail: break
                    }
                }
                // Then nothing after the end changes anything, and a stop or close ends the file
                if finishedBefore,
                    machine.phase != phase || machine.received != received
                        || effects.contains(where: { if case .fail = $0 { false } else { true } })
                {
                    failures.append("walk \(walk) \(steps): changed after the end")
                }
                if case .stop = event, machine.downloads, machine.isLive || machine.phase == .closed {
                    failures.append("walk \(walk) \(steps): not stopped")
                }
                if case .close = event, ![.stopped, .settled].contains(machine.phase) {
                    failures.append("walk \(walk) \(steps): not settled")
                }
            }
            if ends > 1 { failures.append("walk \(walk) \(steps): the file ended \(ends) times") }
            if !machine.isLive, machine.phase != .closed { ended += 1 }
        }
        #expect(failures.prefix(5) == [])
        // And most walks reached their end
        #expect(ended > 1_500)
    }
}

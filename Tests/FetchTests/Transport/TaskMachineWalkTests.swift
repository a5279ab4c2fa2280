import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

/// Thousands of random but possible lives of one request, against a model of URLSession
/// and the session around the machine: whatever the order of events, the rules that keep
/// FoundationNetworking from crashing and the completion exactly once hold.
struct TaskMachineWalkTests {
    /// A seeded generator (SplitMix64), so that every run walks the same paths.
    struct SeededGenerator: RandomNumberGenerator {
        /// The seed, moved on by each number.
        var state: UInt64
        /// The next number of the sequence.
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// What the walks send, made once: making URLRequests is slow on Linux.
    static let next = urlRequest("/next")
    /// The hop a resend sends.
    static let again = urlRequest("/again", method: "POST")
    /// The error of a refused redirect.
    static let refused = FetchError(.redirectRefused, reason: "no")
    /// The error of a cancel.
    static let cancel = FetchError.cancelled()
    /// What a start-over sends.
    static let fresh = urlRequest("/start")

    /// The machine, and what URLSession and the session know about it.
    struct World {
        /// The machine under test.
        var machine: Machine
        /// Where the machine hands its body, for the walks that do not keep it in memory.
        let kindHandler: FakeKindHandler?
        /// Tasks made so far.
        var made = 0
        /// Resumed tasks whose callbacks still reach the machine, and that have not ended.
        var live: [FakeTask] = []
        /// Tasks cancelled: they may still call in until the cancel lands, then end.
        var cancelled: Set<ObjectIdentifier> = []
        /// The cancelled tasks themselves, kept alive so that no new task reuses their identity.
        var cancelledTasks: [FakeTask] = []
        /// The task URLSession waits for a redirect decision about.
        var waiting: FakeTask?
        /// The task the policy is being asked about.
        var asking: FakeTask?
        /// A task is to be made: the first one, or a resent hop's.
        var toStart = true
        /// How many times the completion was asked for.
        var completions = 0
        /// How many times the owner was given back.
        var releases = 0
        /// The rules broken so far.
        var violations: [String] = []
        /// Every phase reached and effect seen, to show the walks went everywhere.
        var seen: Set<String> = []

        /// A walk whose machine keeps its body in memory, or hands it to `kindHandler`.
        init(kindHandler: FakeKindHandler? = nil) {
            self.kindHandler = kindHandler
            machine = Machine.admitted(kindHandler: kindHandler)
        }

        /// What may happen next, each as a name and the event it sends.
        func possibleEvents() -> [(String, Machine.Event)] {
            var events: [(String, Machine.Event)] = [("cancel", .failed(TaskMachineWalkTests.cancel))]
            if toStart { events.append(("start", .started(FakeTask("t\(made + 1)")))) }
            if let asking {
                events += [
                    ("follow", .decided(asking, .follow(next))), ("resend", .decided(asking, .resend(again))),
                    ("stop", .decided(asking, .stop)), ("refuse", .decided(asking, .fail(refused))),
                ]
            }
            for task in live where task !== waiting {
                events += [
                    ("respond", .responded(task, status: 200, expectedLength: 3)),
                    ("receive", .received(task, Data("abc".utf8))),
                    ("redirect", .redirected(task)),
                    ("end", .ended(task, cancelled.contains(ObjectIdentifier(task)) ? URLError(.cancelled) : nil)),
                    ("sent", .sent(task, total: 3, expected: 3)),
                ]
                if kindHandler != nil {
                    events += [
                        ("startOver", .startOver(task, TaskMachineWalkTests.fresh)), ("decline", .declined(task)),
                    ]
                }
            }
            return events
        }

        /// Sends `event` to the machine and plays its effects, checking each against the rules.
        mutating func send(_ name: String, _ event: Machine.Event) {
            switch event {
            case .started:
                made += 1
                toStart = false
            case .redirected(let task): waiting = task
            case .decided: asking = nil
            case .ended(let task, _): live.removeAll { $0 === task }
            default: break
            }
            for effect in machine.handle(event) {
                seen.insert(Self.kind(of: effect))
                play(effect, after: name)
            }
            if case .redirected(let task) = event, waiting === task, asking == nil {
                // The decision was dropped: only a task whose cancel is on its way may be left
                // waiting, and that cancel ends it.
                if !cancelled.contains(ObjectIdentifier(task)) {
                    violations.append("after \(name): the decision of \(task), which runs on, was dropped")
                }
                waiting = nil
            }
            seen.insert(Self.kind(of: machine.phase))
            if machine.isFinished, !machine.body.isEmpty || machine.heldOwner != nil {
                violations.append("after \(name): finished but holds its body or its owner")
            }
        }

        /// Plays one effect as URLSession and the session would, checking it against the rules.
        private mutating func play(_ effect: Machine.Effect, after name: String) {
            switch effect {
            case .resume(let task): live.append(task)
            case .cancel(let task):
                if task === waiting {
                    violations.append("after \(name): \(task) cancelled while its decision is pending")
                }
                cancelled.insert(ObjectIdentifier(task))
                cancelledTasks.append(task)
            case .forget(let task): live.removeAll { $0 === task }
            case .decideRedirect:
                if waiting == nil { violations.append("after \(name): a decision asked for with no redirect") }
                asking = waiting
            case .answerRedirect:
                if let task = waiting, cancelled.contains(ObjectIdentifier(task)) {
                    violations.append("after \(name): a decision handed back after \(task) was cancelled")
                } else if waiting == nil {
                    violations.append("after \(name): a decision handed back while none is pending")
                }
                waiting = nil
            case .send: toStart = true
            case .complete:
                completions += 1
                if completions > 1 { violations.append("after \(name): completed again") }
            case .release: releases += 1
            case .open(let to), .write(let to, _):
                if to !== kindHandler { violations.append("after \(name): a body handed to no kindHandler") }
                if machine.isFinished { violations.append("after \(name): a body handed on after the end") }
            case .reportSent:
                if machine.isFinished { violations.append("after \(name): progress after the end") }
            }
        }

        /// The name of an effect, without its values.
        static func kind(of effect: Machine.Effect) -> String {
            switch effect {
            case .resume: "resume"
            case .cancel: "cancel"
            case .forget: "forget"
            case .decideRedirect: "decide"
            case .answerRedirect: "answer"
            case .send: "send"
            case .complete: "complete"
            case .release: "release"
            case .open: "open"
            case .write: "write"
            case .reportSent: "reportSent"
            }
        }

        /// The name of a phase, without its values.
        static func kind(of phase: Machine.Phase) -> String {
            switch phase {
            case .admitted: "admitted"
            case .running: "running"
            case .awaitingRedirectDecision: "awaitingRedirectDecision"
            case .cancelAfterRedirectDecision: "cancelAfterRedirectDecision"
            case .finished: "finished"
            }
        }

        /// Nothing more can happen but a cancel: no task runs, none is to be made, no decision waits.
        var isQuiet: Bool { live.isEmpty && !toStart && asking == nil && waiting == nil }
    }

    @Test func everyOrderOfEventsKeepsTheRules() {
        // Given 3,000 walks of up to 14 steps each, picking among the events possible at each step
        var random = SeededGenerator(state: 2026)
        var seen: Set<String> = []
        var failures: [String] = []
        var quietWalks = 0
        for walk in 0..<3_000 {
            // (every other walk hands its body to a kindHandler)
            var world = World(kindHandler: walk.isMultiple(of: 2) ? nil : FakeKindHandler("file"))
            var steps: [String] = []
            // When each walk runs
            for _ in 0..<14 {
                let events = world.possibleEvents()
                // Cancels are rarer than the rest, so that walks get far enough to meet redirects
                let pick =
                    events.count > 1 && Int.random(in: 0..<4, using: &random) != 0
                    ? events[Int.random(in: 1..<events.count, using: &random)] : events[0]
                steps.append(pick.0)
                world.send(pick.0, pick.1)
                if world.isQuiet { break }
            }
            // Then no rule was broken; the owner was given back with every completion; and a
            // request whose tasks have all ended has completed
            if world.isQuiet {
                quietWalks += 1
                if world.completions != 1 { world.violations.append("quiet without completing") }
            }
            if world.releases != world.completions { world.violations.append("released \(world.releases) times") }
            if let first = world.violations.first, failures.count < 5 {
                failures.append("walk \(walk) \(steps): \(first)")
            }
            seen.formUnion(world.seen)
        }
        #expect(failures.isEmpty, "\(failures)")
        // And the walks reached every phase and every effect, and most of them ended
        let everything: Set<String> = [
            "admitted", "running", "awaitingRedirectDecision", "cancelAfterRedirectDecision", "finished",
            "resume", "cancel", "forget", "decide", "answer", "send", "complete", "release", "open", "write",
            "reportSent",
        ]
        #expect(everything.subtracting(seen).isEmpty, "never reached: \(everything.subtracting(seen))")
        #expect(quietWalks > 1_500)
    }
}

import Testing
import Fetch
@testable import FetchTesting

/// Thousands of random but possible orders of calls arriving and settling, tests waiting,
/// timing out on a manually advanced clock and being cancelled, against a reference model:
/// every call is handed out once, in the order it arrived and only once settled, to the
/// waiters in the order they came, and every waiter ends exactly once.
struct CallArrivalsWalkTests {
    /// How a waiter ended.
    enum Outcome: Equatable {
        case call(Int)
        case timedOut
        case cancelled
    }

    /// `CallArrivals` over numbered calls and waiters, the reference model beside it, and a clock
    /// for the waiters' timeouts, as `SpyPerformer.nextCall` schedules them.
    struct World {
        var arrivals = CallArrivals<Int, Int>()
        let clock = ManualScheduler()
        /// The waiters whose timeout fired, to stop as the timeout's job does.
        let fired = Recorder<Int>()
        // The model.
        /// Whether each call, by its number, is settled.
        var settled: [Bool] = []
        /// The number of the next call to hand out.
        var nextToHandOut = 0
        /// The waiters waiting, in the order they came.
        var waiting: [Int] = []
        /// Every waiter made so far.
        var waiters: [Int] = []
        /// How each waiter ended, in order.
        var outcomes: [Int: [Outcome]] = [:]
        /// Each waiter's timeout, cancelled once it ends, as `nextCall` does.
        var timers: [Int: any Cancellable] = [:]
        /// The rules broken so far.
        var violations: [String] = []
        /// What the walk met, to show the walks went everywhere.
        var seen: Set<String> = []

        /// What may happen next.
        func possibleEvents() -> [String] {
            var events = ["arrive", "wait", "advance"]
            if settled.contains(false) { events += ["settle", "settle"] }
            if !waiters.isEmpty { events.append("cancel") }
            return events
        }

        mutating func send(_ event: String, using random: inout TaskMachineWalkTests.SeededGenerator) {
            switch event {
            case "arrive":
                let number = arrivals.arrive(settled.count)
                if number != settled.count { violations.append("call \(settled.count) numbered \(number)") }
                settled.append(false)
            case "settle":
                let unsettled = settled.indices.filter { !settled[$0] }
                let number = unsettled[Int.random(in: 0..<unsettled.count, using: &random)]
                settled[number] = true
                let served = arrivals.settle(number)
                if served.count > 1 { seen.insert("several served at once") }
                for (waiter, call) in served { handedOut(call, to: waiter, when: "settle") }
            case "wait":
                let id = arrivals.newWaiter()
                waiters.append(id)
                if let call = arrivals.wait(id, id) {
                    handedOut(call, to: id, when: "wait")
                } else {
                    waiting.append(id)
                    let fired = self.fired
                    timers[id] = clock.schedule(after: .seconds(Int.random(in: 0...3, using: &random))) {
                        fired.record(id)
                    }
                }
            case "cancel":
                let id = waiters[Int.random(in: 0..<waiters.count, using: &random)]
                stop(id, with: .cancelled)
            default:
                let before = fired.count
                clock.advance(by: .seconds(Int.random(in: 0...2, using: &random)))
                for id in fired.all.dropFirst(before) { stop(id, with: .timedOut) }
            }
            checkNothingReadyIsLeftWaiting()
        }

        /// `call` was handed to `waiter`: it must be the next call in arrival order, settled,
        /// and the waiter the first of those waiting (or a new one when none waits).
        mutating func handedOut(_ call: Int, to waiter: Int, when: String) {
            seen.insert("served at \(when)")
            if call != nextToHandOut { violations.append("waiter \(waiter) got call \(call), not \(nextToHandOut)") }
            if !settled.indices.contains(call) || !settled[call] {
                violations.append("call \(call) handed out before it was settled")
            }
            if let first = waiting.first, first != waiter {
                violations.append("waiter \(waiter) served before waiter \(first)")
            }
            waiting.removeAll { $0 == waiter }
            nextToHandOut = call + 1
            end(waiter, .call(call))
        }

        /// Stops `waiter` as a timeout or a cancel does: only a waiter still waiting ends.
        mutating func stop(_ waiter: Int, with outcome: Outcome) {
            let stopped = arrivals.stopWaiting(waiter)
            let wasWaiting = waiting.contains(waiter)
            if (stopped != nil) != wasWaiting { violations.append("stopping waiter \(waiter): \(stopped as Any)") }
            guard let stopped else {
                seen.insert("\(outcome) after the end")
                return
            }
            if stopped != waiter { violations.append("stopping waiter \(waiter) ended waiter \(stopped)") }
            waiting.removeAll { $0 == waiter }
            seen.insert("\(outcome)")
            end(waiter, outcome)
        }

        mutating func end(_ waiter: Int, _ outcome: Outcome) {
            outcomes[waiter, default: []].append(outcome)
            timers.removeValue(forKey: waiter)?.cancel()
        }

        /// No waiter waits while the next call is settled, and the struct's count agrees.
        mutating func checkNothingReadyIsLeftWaiting() {
            if !waiting.isEmpty, settled.indices.contains(nextToHandOut), settled[nextToHandOut] {
                violations.append("call \(nextToHandOut) is settled but \(waiting) still wait")
            }
            if arrivals.waiting != waiting.count { violations.append("\(arrivals.waiting) wait, not \(waiting.count)") }
            if arrivals.calls != Array(settled.indices) { violations.append("\(arrivals.calls) arrived") }
        }

        /// Settles every call, waits for each one left and lets every timeout fire.
        mutating func finish(using random: inout TaskMachineWalkTests.SeededGenerator) {
            while settled.contains(false) { send("settle", using: &random) }
            while nextToHandOut < settled.count { send("wait", using: &random) }
            clock.runAll()
            for id in fired.all { stop(id, with: .timedOut) }
        }
    }

    @Test func everyOrderOfArrivalsAndWaitsHandsEachCallOutOnceInOrder() {
        // Given 1,000 walks of 40 steps, picking among the events possible at each step
        var random = TaskMachineWalkTests.SeededGenerator(state: 33)
        var seen: Set<String> = []
        var failures: [String] = []
        for walk in 0..<1_000 {
            var world = World()
            var steps: [String] = []
            // When each walk runs, then settles every call and waits for each one left
            for _ in 0..<40 {
                let events = world.possibleEvents()
                let event = events[Int.random(in: 0..<events.count, using: &random)]
                steps.append(event)
                world.send(event, using: &random)
            }
            world.finish(using: &random)
            // Then no rule was broken, every call was handed out, every waiter ended exactly
            // once, and no timeout is left on the clock
            if world.nextToHandOut != world.settled.count { world.violations.append("calls left over") }
            for id in world.waiters where world.outcomes[id]?.count != 1 {
                world.violations.append("waiter \(id) ended \(world.outcomes[id] ?? [])")
            }
            if world.clock.pendingCount != 0 { world.violations.append("\(world.clock.pendingCount) timers left") }
            if let first = world.violations.first, failures.count < 5 {
                failures.append("walk \(walk) \(steps): \(first)")
            }
            seen.formUnion(world.seen)
        }
        #expect(failures.isEmpty, "\(failures)")
        // And the walks met every way a waiter is served or ends
        let everything: Set<String> = [
            "served at wait", "served at settle", "several served at once", "timedOut", "cancelled",
            "cancelled after the end",
        ]
        #expect(everything.subtracting(seen).isEmpty, "never met: \(everything.subtracting(seen))")
    }
}

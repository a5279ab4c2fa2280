import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch
import FetchTesting
import FetchCaching

/// The cache and metrics part: what a fresh cache hit costs over a spy, what a `304`
/// revalidation costs against a full GET on the loopback server, and what collecting
/// metrics costs at one request in flight.
enum CacheBench {
    /// Medians over the rounds.
    struct Result: Sendable {
        /// Nanoseconds per call of the spy alone, of a fresh hit through the caching layer, and
        /// of a fresh hit for a request with `Authorization` (its partition digest included).
        var bareSpy: Double
        var hit: Double
        var credentialedHit: Double
        /// Per body: milliseconds per request of a 304 revalidation and of a full GET.
        var revalidations: [(name: String, revalidated: Double, full: Double)] = []
        /// Requests per second at 1 in flight with metrics collected and without, and the
        /// median of the per-round ratios (with the lowest and highest).
        var withMetrics: Double = 0
        var withoutMetrics: Double = 0
        var metricsRatios: [Double] = []
    }

    /// The fresh-hit part alone: no server.
    static func hitCost(rounds: Int, calls: Int) throws -> Result {
        let answer = SpyPerformer.Answer.response(
            Response(
                status: 200,
                headers: ["Cache-Control": "max-age=86400", "ETag": "\"v1\"", "Content-Type": "application/json"],
                body: Data(repeating: 0x61, count: 1024)
            ))
        let url = URL(string: "http://127.0.0.1/articles/4711")!
        let request = BasicRequest(url: url)
        let credentialed = BasicRequest(
            url: url, headers: ["Authorization": "Bearer " + String(repeating: "t", count: 40)])
        var bare: [Double] = []
        var hit: [Double] = []
        var credentialedHit: [Double] = []
        for round in 0...rounds {
            let spy = SpyPerformer(match: { _ in answer })
            let cache = spy.caching()
            _ = try measure(cache, request, calls: 1)  // stores the responses
            _ = try measure(cache, credentialed, calls: 1)
            let spyTime = try measure(spy, request, calls: calls)
            let hitTime = try measure(cache, request, calls: calls)
            let credentialedTime = try measure(cache, credentialed, calls: calls)
            guard spy.calls.count == 2 + calls else {
                throw Main.UsageError(
                    description: "the cache sent \(spy.calls.count - 2 - calls) of \(2 * calls) hits to the spy")
            }
            if round > 0 {
                (bare, hit) = (bare + [spyTime], hit + [hitTime])
                credentialedHit.append(credentialedTime)
            }
        }
        return Result(
            bareSpy: Statistics.median(bare) ?? 0, hit: Statistics.median(hit) ?? 0,
            credentialedHit: Statistics.median(credentialedHit) ?? 0)
    }

    /// Everything, against `server` (run.sh's nginx, whose static files carry ETag and
    /// Last-Modified and no freshness, so the cache revalidates each time).
    static func run(server: Server, rounds: Int, calls: Int, requests: Int) throws -> Result {
        var result = try hitCost(rounds: rounds, calls: calls)
        for (name, path) in [("200 B", "/small.txt"), ("1 MiB", "/1m.bin")] {
            log("revalidation: \(name)")
            result.revalidations.append(
                try revalidation(
                    server.url(path), name: name, rounds: rounds,
                    requests: name == "1 MiB" ? max(requests / 10, 20) : requests))
        }
        log("metrics on and off, 1 in flight")
        try metricsCost(server.url("/small.txt"), rounds: rounds, requests: requests, into: &result)
        return result
    }

    /// Milliseconds per sequential request: revalidations through the cache, full GETs
    /// through the same session without it, alternating by round.
    private static func revalidation(_ url: URL, name: String, rounds: Int, requests: Int) throws
        -> (name: String, revalidated: Double, full: Double)
    {
        let session = Session()
        let cached = session.caching()
        let request = BasicRequest(url: url)
        let first = try Blocking.perform(cached, request)
        guard first.status == 200, first.headers["ETag"] != nil else {
            throw Main.UsageError(description: "\(url) has no ETag: nothing to revalidate")
        }
        var revalidated: [Double] = []
        var full: [Double] = []
        for round in 0...rounds {
            let order: [Bool] = round.isMultiple(of: 2) ? [true, false] : [false, true]
            for viaCache in order {
                let start = ContinuousClock.now
                for _ in 0..<requests {
                    let response = try Blocking.perform(viaCache ? cached : session, request)
                    if viaCache && response.metrics.cache != .revalidated {
                        throw Main.UsageError(
                            description: "expected a revalidation, got \(String(describing: response.metrics.cache))")
                    }
                }
                let milliseconds = (ContinuousClock.now - start).seconds * 1000 / Double(requests)
                if round > 0 { if viaCache { revalidated.append(milliseconds) } else { full.append(milliseconds) } }
            }
        }
        return (name, Statistics.median(revalidated) ?? 0, Statistics.median(full) ?? 0)
    }

    /// Requests per second of sequential GETs on a session that collects metrics and one
    /// that does not, alternating by round.
    private static func metricsCost(_ url: URL, rounds: Int, requests: Int, into result: inout Result) throws {
        var on = Session.Configuration()
        var off = Session.Configuration()
        on.collectsMetrics = true
        off.collectsMetrics = false
        let sessions = [true: Session(configuration: on), false: Session(configuration: off)]
        let request = BasicRequest(url: url)
        for session in sessions.values { for _ in 0..<50 { _ = try Blocking.perform(session, request) } }
        var rates: [Bool: [Double]] = [:]
        for round in 0..<max(rounds, 2) {
            var pair: [Bool: Double] = [:]
            for collecting in round.isMultiple(of: 2) ? [true, false] : [false, true] {
                let start = ContinuousClock.now
                for _ in 0..<requests { _ = try Blocking.perform(sessions[collecting]!, request) }
                pair[collecting] = Double(requests) / (ContinuousClock.now - start).seconds
            }
            rates[true, default: []].append(pair[true]!)
            rates[false, default: []].append(pair[false]!)
            result.metricsRatios.append(pair[true]! / pair[false]!)
        }
        result.withMetrics = Statistics.median(rates[true] ?? []) ?? 0
        result.withoutMetrics = Statistics.median(rates[false] ?? []) ?? 0
    }

    /// Nanoseconds per call of `performer`, whose every completion must run before `perform` returns.
    private static func measure(_ performer: any RequestPerforming, _ request: BasicRequest, calls: Int) throws
        -> Double
    {
        let counter = Counter()
        let start = ContinuousClock.now
        for _ in 0..<calls { performer.perform(request) { counter.add($0) } }
        let elapsed = ContinuousClock.now - start
        try counter.check(calls)
        return elapsed.seconds * 1e9 / Double(calls)
    }

    /// The part of the report.
    static func markdown(_ result: Result) -> [String] {
        let ratios = result.metricsRatios.sorted()
        let ratio = Statistics.median(result.metricsRatios) ?? 0
        var lines = [
            "", "Cache and metrics:", "",
            "| Case | Value | Target | Result |",
            "|---|---:|---|---|",
            "| spy alone, ns per call | \(Format.number(result.bareSpy)) | | |",
            "| fresh cache hit over a spy, ns per call (the spy is not called) | \(Format.number(result.hit)) | ≤ 2,000 ns | "
                + (result.hit <= 2000 ? "met" : "not met") + " |",
            "| fresh cache hit with `Authorization`, ns per call (its partition's digest included) | "
                + "\(Format.number(result.credentialedHit)) | | |",
        ]
        for case (let name, let revalidated, let full) in result.revalidations {
            lines.append(
                "| GET \(name): 304 revalidation through the cache / full GET, ms per request | "
                    + "\(Format.number(revalidated)) / \(Format.number(full)) (\(Format.number(revalidated / max(full, 1e-9))) ×) | | |"
            )
        }
        if !ratios.isEmpty {
            lines.append(
                "| GET 200 B, 1 in flight: req/s with metrics / without | \(Format.number(result.withMetrics)) / "
                    + "\(Format.number(result.withoutMetrics)) (median per-round ratio \(Format.number(ratio)), "
                    + "\(Format.number(ratios.first!))–\(Format.number(ratios.last!))) | ≥ 0.98 | "
                    + (ratio >= 0.98 ? "met" : "not met") + " |")
        }
        return lines
    }
}

/// Waits for one call on the calling thread: the benchmark's own loop, on its main thread.
enum Blocking {
    static func perform(_ performer: any RequestPerforming, _ request: any Request) throws -> Response {
        let done = DispatchSemaphore(value: 0)
        let box = Counter()
        performer.perform(request) { result in
            box.keep(result)
            done.signal()
        }
        done.wait()
        return try box.result()
    }
}

/// Counts completions and keeps the last result.
private final class Counter: @unchecked Sendable {
    // `lock` guards `count`, `failure` and `last`.
    private let lock = NSLock()
    private var count = 0
    private var failure: (any Error)?
    private var last: Result<Response, any Error>?

    func add(_ result: Result<Response, any Error>) {
        lock.withLock {
            count += 1
            if case .failure(let error) = result, failure == nil { failure = error }
        }
    }

    func keep(_ result: Result<Response, any Error>) { lock.withLock { last = result } }

    func result() throws -> Response {
        guard let last = lock.withLock({ last }) else { throw Main.UsageError(description: "no result") }
        return try last.get()
    }

    func check(_ expected: Int) throws {
        try lock.withLock {
            if let failure { throw failure }
            guard count == expected else {
                throw Main.UsageError(description: "\(count) of \(expected) completions ran before perform returned")
            }
        }
    }
}

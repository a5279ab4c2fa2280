import Foundation
import Testing
@testable import Fetch
import TestSupport

/// A default session sends many requests at once to an origin that speaks HTTP/2, and no more
/// than `maximumConnectionsPerHost` at once to one that speaks HTTP/1.1, counted at the server
/// (Servers/http2_server.py) and in the session's line, never timed.
@Suite(.loopbackServers, .http2Servers)
struct MultiplexingTests {
    /// The tests that run in a child process that trusts the servers' CA.
    static let trusted = "MultiplexingTests/trusted"

    /// Sends `count` GETs of `url` at once through `session` and waits for them all.
    /// - Returns: each one's status.
    static func burst(_ count: Int, of url: URL, through session: Session) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask { try await session.response(for: BasicRequest(url: url)).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Sends `count` GETs of `url` at once through `session`, looking at the session's line
    /// every few milliseconds until they have all completed.
    /// - Returns: each one's status, and what the line held on the origin at each look.
    static func burstWatchingTheLine(
        _ count: Int, of url: URL, through session: Session
    ) async throws -> (statuses: [Int], looks: [(running: Int, waiting: Int)]) {
        let origin = try #require(Origin(url))
        let sending = Task { try await burst(count, of: url, through: session) }
        let finished = Locked(false)
        Task {
            _ = await sending.result
            finished.withLock { $0 = true }
        }
        var looks: [(running: Int, waiting: Int)] = []
        while !finished.withLock({ $0 }) {
            looks.append(session.limiter.withLock { ($0.runningCount(at: origin), $0.waitingCount(at: origin)) })
            try await Task.sleep(for: .milliseconds(5))
        }
        return (try await sending.value, looks)
    }

    @Test func overTLSWithTheServersCATrusted() async throws {
        // Given a child process whose system trust store holds only the servers' CA
        let servers = try HTTP2Servers.require()
        // When it runs the tests below against the HTTP/2 and the HTTP/1.1-only TLS ports
        let outcome = try await IsolatedRun.run(
            Self.trusted, faultServer: try LoopbackServers.require().faults,
            launcher: IsolatedRun.trusting(caFile: servers.caFile))
        // Then each of them ran and passed there
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.contains("trustedSixteenAtOnceOverHTTP2() passed"), "\(outcome.output)")
        #expect(outcome.output.contains("trustedHTTP1OverTLSRunsNoMoreThanTheLimit() passed"), "\(outcome.output)")
    }

    @Test(.enabled(if: IsolatedRun.isChild(named: trusted)))
    func trustedSixteenAtOnceOverHTTP2() async throws {
        // Given a default session and an HTTPS origin that speaks HTTP/2, each answer's head
        // sent once 16 requests of its burst are in flight at once, and every body held back
        // until the test lets them go: so the session hears 16 heads before any answer ends,
        // however libcurl's reads fall (answered at once, heads and ends can interleave so
        // that no more than 4 are ever heard unfinished, which proves nothing)
        let servers = try HTTP2Servers.require()
        let session = Session()
        for round in ["first", "second"] {
            let tag = "h2-\(round)-\(UUID().uuidString)"
            let url = try servers.delay(.h2, tag: tag, until: 16, holdingBodies: true)
            let origin = try #require(Origin(url))
            // When 16 GETs are sent at once, on the cold origin and again once it has answered
            let sending = Task { try await Self.burst(16, of: url, through: session) }
            // Then the session learns from the heads alone that the origin multiplexes
            try await within("the session to hear that \(origin) multiplexes") {
                while !session.limiter.withLock({ $0.isMultiplexing(origin) }) {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
            // And once the bodies go, all 16 had been in flight at once, over HTTP/2, and every
            // one succeeded
            try await servers.release(tag)
            let statuses = try await sending.value(within: standardBound, "the burst of 16")
            let stats = try await servers.stats(tag)
            #expect(statuses == Array(repeating: 200, count: 16))
            #expect(stats.peakInFlight == 16, "\(tag): \(stats)")
            #expect(stats.protocols == ["2": 16])
            #expect(stats.connections <= session.configuration.maximumConnectionsPerHost)
        }
    }

    @Test(.enabled(if: IsolatedRun.isChild(named: trusted)))
    func trustedHTTP1OverTLSRunsNoMoreThanTheLimit() async throws {
        // Given a default session and an HTTPS origin that speaks HTTP/1.1 only
        let servers = try HTTP2Servers.require()
        let session = Session()
        let tag = "http1-\(UUID().uuidString)"
        let url = try servers.delay(.http1, tag: tag, milliseconds: 60)
        let origin = try #require(Origin(url))
        // When 130 GETs are sent at once, more than the 100 a new https origin is sent
        let (statuses, looks) = try await Self.burstWatchingTheLine(130, of: url, through: session)
        // Then once responses came one per connection, the session held the rest in its own
        // line (where waiting does not count against the idle timeout) rather than letting
        // them wait inside URLSession, and every request succeeded over HTTP/1.1 on at most 4
        // connections (the line holds that state about 450 ms, 30 requests 4 at a time at 60 ms
        // each, against a look every 5 ms)
        #expect(looks.contains { $0.waiting > 0 && $0.running <= 4 })
        #expect(statuses == Array(repeating: 200, count: 130))
        let stats = try await servers.stats(tag)
        #expect(stats.protocols == ["1.1": 130])
        #expect(stats.connections <= 4, "\(stats)")
        #expect(!session.limiter.withLock { $0.isMultiplexing(origin) })
    }

    @Test func plainHTTPRunsNoMoreThanTheLimitFromTheFirstRequest() async throws {
        // Given a default session and a plain-HTTP origin it never reached (libcurl speaks
        // HTTP/2 only over TLS), which holds every answer until the test lets them go
        let servers = try HTTP2Servers.require()
        let session = Session()
        let tag = "plain-\(UUID().uuidString)"
        let url = try servers.delay(.plain, tag: tag, milliseconds: 20, gated: true)
        let origin = try #require(Origin(url))
        // When 16 GETs are sent at once
        let sending = Task { try await Self.burst(16, of: url, through: session) }
        // Then from the first burst on, 4 run and the 12 others wait in the session's line
        // (a steady state while the server holds the answers, so no look can miss it)
        let line = try await within("4 requests running and 12 waiting in the line") {
            while true {
                let line = session.limiter.withLock { ($0.runningCount(at: origin), $0.waitingCount(at: origin)) }
                if line.0 + line.1 == 16, try await servers.stats(tag).peakInFlight == 4 { return line }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        #expect(line == (4, 12))
        // And once the answers go, all succeed on at most 4 connections, never more than 4 at once
        try await servers.release(tag)
        let statuses = try await sending.value(within: standardBound, "the burst of 16")
        #expect(statuses == Array(repeating: 200, count: 16))
        let stats = try await servers.stats(tag)
        #expect(stats.peakInFlight == 4, "\(stats)")
        #expect(stats.connections <= 4, "\(stats)")
        #expect(stats.protocols == ["1.1": 16])
    }
}

import Foundation
import Fetch
import FetchTesting
import FetchCaching

/// Nanoseconds per call of a spy alone and of the full layer stack over it, with and
/// without JSON decoding of a 1 KB model. No network: the spy answers at once.
enum LayerOverhead {
    /// Medians over the rounds, in nanoseconds per call.
    struct Result: Sendable {
        var bare: Double
        var stack: Double
        var bareDecoding: Double
        var stackDecoding: Double
        /// Each layer alone over the spy, in ``FullStack/layers`` order.
        var layers: [(layer: FullStack.Layer, nanoseconds: Double)]
    }

    /// A model whose JSON is about 1 KB.
    struct Article: Codable, Sendable, Parsable {
        struct Author: Codable, Sendable {
            var id: Int
            var name: String
            var email: String
        }
        struct Comment: Codable, Sendable {
            var id: Int
            var author: String
            var text: String
            var likes: Int
        }
        var id: Int
        var title: String
        var author: Author
        var tags: [String]
        var summary: String
        var published: Bool
        var score: Double
        var comments: [Comment]

        static let sample = Article(
            id: 4711, title: "Measuring an HTTP client against the engine under it",
            author: Author(id: 7, name: "Ada Lovelace", email: "ada@example.com"),
            tags: ["swift", "http", "linux", "benchmark", "urlsession"],
            summary: String(repeating: "A paragraph of text that stands for the body of an article. ", count: 7),
            published: true, score: 4.75,
            comments: (1...4).map {
                Comment(id: $0, author: "reader\($0)", text: "A short comment, number \($0).", likes: $0 * 3)
            }
        )
    }

    /// One thing measured: a performer over a fresh spy, called with the absolute or
    /// the relative URL, with or without decoding.
    private struct Variant {
        var name: String
        var relative: Bool
        var decoding: Bool
        var make: (SpyPerformer) -> any RequestPerforming
    }

    /// Runs `rounds` rounds of `calls` calls for each variant, interleaved, after one
    /// round of warm-up.
    static func run(rounds: Int, calls: Int) throws -> Result {
        let json = try JSONEncoder().encode(Article.sample)
        let answer = SpyPerformer.Answer.response(
            Response(status: 200, headers: ["Content-Type": "application/json"], body: json)
        )
        // The spy gets the same absolute URL either way: the stack's BaseURL puts the base in front.
        let absolute = BasicRequest(url: URL(string: FullStack.baseURL + "/" + FullStack.relativePath)!)
        let relative = BasicRequest(url: URL(string: FullStack.relativePath)!)
        let variants =
            [
                Variant(name: "bare", relative: false, decoding: false) { $0 },
                Variant(name: "stack", relative: true, decoding: false, make: FullStack.make),
                Variant(name: "bareDecoding", relative: false, decoding: true) { $0 },
                Variant(name: "stackDecoding", relative: true, decoding: true, make: FullStack.make),
            ]
            + FullStack.layers.map { layer in
                Variant(name: layer.name, relative: layer.takesRelativeURL, decoding: false, make: layer.make)
            }
        var samples: [String: [Double]] = [:]
        for round in 0...rounds {
            for variant in variants {
                let performer = variant.make(SpyPerformer(match: { _ in answer }))
                let nanoseconds = try measure(
                    performer, request: variant.relative ? relative : absolute,
                    calls: calls, decoding: variant.decoding)
                if round > 0 { samples[variant.name, default: []].append(nanoseconds) }
            }
        }
        func median(_ name: String) -> Double { Statistics.median(samples[name] ?? []) ?? 0 }
        return Result(
            bare: median("bare"), stack: median("stack"),
            bareDecoding: median("bareDecoding"), stackDecoding: median("stackDecoding"),
            layers: FullStack.layers.map { ($0, median($0.name)) }
        )
    }

    /// Calls the layer of ``FullStack/layers`` named `name` (or the bare spy, for "spy
    /// alone"; or `.caching()` over the spy, for "cache hit" and "cache hit with
    /// Authorization", answering every call from storage) `count` times, after one call that
    /// warms it: for an instruction count under `valgrind --tool=callgrind`, as the count
    /// with `count` calls minus the count with none.
    static func calls(layer name: String, count: Int) throws {
        let cacheHits = ["cache hit", "cache hit with Authorization"].contains(name)
        let fields: HTTPHeaders = cacheHits ? ["Cache-Control": "max-age=86400"] : [:]
        let answer = SpyPerformer.Answer.response(
            Response(
                status: 200, headers: fields.merging(defaults: ["Content-Type": "application/json"]),
                body: Data("{}".utf8)))
        let layer = FullStack.layers.first { $0.name == name }
        guard layer != nil || name == "spy alone" || cacheHits else {
            throw Main.UsageError(description: "no layer named \(name)")
        }
        let spy = SpyPerformer(match: { _ in answer })
        let performer = cacheHits ? spy.caching() : layer?.make(spy) ?? spy
        let path =
            layer?.takesRelativeURL == true ? FullStack.relativePath : FullStack.baseURL + "/" + FullStack.relativePath
        let credentials: HTTPHeaders =
            name == "cache hit with Authorization"
            ? ["Authorization": "Bearer " + String(repeating: "t", count: 40)] : [:]
        let request = BasicRequest(url: URL(string: path)!, headers: credentials)
        _ = try measure(performer, request: request, calls: 1, decoding: false)
        _ = try measure(performer, request: request, calls: count, decoding: false)
    }

    /// The size of the model's JSON, for the report.
    static var modelSize: Int { (try? JSONEncoder().encode(Article.sample).count) ?? 0 }

    private static func measure(
        _ performer: any RequestPerforming, request: BasicRequest,
        calls: Int, decoding: Bool
    ) throws -> Double {
        let counter = CallCounter()
        let start = ContinuousClock.now
        for _ in 0..<calls {
            if decoding {
                performer.perform(request, as: Article.self) { counter.record($0.map { _ in () }) }
            } else {
                performer.perform(request) { counter.record($0.map { _ in () }) }
            }
        }
        let elapsed = ContinuousClock.now - start
        // The spy answers before `perform` returns: every completion must have run by now.
        try counter.check(expected: calls)
        return elapsed.seconds * 1e9 / Double(calls)
    }
}

/// Counts completions and keeps the first failure.
private final class CallCounter: @unchecked Sendable {
    // `lock` guards `count` and `failure`.
    private let lock = NSLock()
    private var count = 0
    private var failure: (any Error)?

    func record(_ result: Result<Void, any Error>) {
        lock.withLock {
            count += 1
            if case .failure(let error) = result, failure == nil { failure = error }
        }
    }

    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    func check(expected: Int) throws {
        try lock.withLock {
            if let failure { throw failure }
            guard count == expected else {
                throw Mismatch(description: "\(count) of \(expected) completions ran before perform returned")
            }
        }
    }
}

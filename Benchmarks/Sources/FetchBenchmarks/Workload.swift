import Foundation

/// Which client a measurement uses.
enum Side: String, Codable, Sendable, CaseIterable {
    /// Fetch's `Session`.
    case fetch
    /// URLSession with the same configuration, completion-handler data tasks.
    case raw
    /// URLSession with a data delegate that collects the body (or, in the 1 GiB case,
    /// writes each piece to a file) and completes in `didCompleteWithError`, as `Session`
    /// does, without Fetch's bookkeeping (explore only).
    case rawDelegate = "raw-delegate"
    /// Completion-handler data tasks whose completion is handed to another queue, as
    /// `Session` hands its completions to the completion queue (explore only).
    case rawHop = "raw-hop"
    /// Both of the above (explore only).
    case rawDelegateHop = "raw-delegate-hop"
    /// Completion-handler data tasks that set `Authorization: Bearer` and `Accept` on each call,
    /// as a hand-written client does the job of `fetch-layers`' enhancers (explore only).
    case rawHeaders = "raw-headers"
    /// Fetch's `Session` under the README's recommended stack of layers (explore only; see
    /// ``FullStack/recommended(over:)``).
    case fetchStack = "fetch-stack"
    /// Fetch's `Session` under the layers most apps add and no cache: a bearer token, `Accept`,
    /// retry and logging (explore only; see ``FullStack/plain(over:)``).
    case fetchLayers = "fetch-layers"

    /// The column title in the report.
    var title: String {
        switch self {
        case .fetch: "Fetch"
        case .fetchStack: "Fetch (recommended stack)"
        case .fetchLayers: "Fetch (layers, no cache)"
        case .raw: "URLSession"
        default: "URLSession (\(rawValue.dropFirst(4)))"
        }
    }
}

/// One throughput case: what to request, how many at once, how many in all.
struct Workload: Codable, Sendable {
    /// The case's name in the report.
    var name: String
    /// `GET` or `POST`.
    var method: String
    /// The path on the loopback server.
    var path: String
    /// Bytes of request body (POST only).
    var bodySize: Int = 0
    /// The body size every response must have.
    var expectedSize: Int
    /// Requests kept in flight at once.
    var inFlight: Int
    /// Requests measured per round.
    var count: Int
    /// Requests sent before measuring (connections they open are counted).
    var warmup: Int
    /// `maximumConnectionsPerHost` for both clients.
    var maximumConnections: Int
}

/// What one round of a throughput case measured in its own process.
struct LoadResult: Codable, Sendable {
    /// Requests measured (warm-up excluded).
    var requests: Int
    /// Wall time of the measured requests.
    var seconds: Double
    /// User plus system CPU time of the measured requests.
    var cpuSeconds: Double
    /// The process's peak resident set size, warm-up included, in bytes.
    var peakBytes: Int
    /// TCP connections the server accepted from this process, warm-up included.
    var connections: Int?
    /// Requests that failed or got an unexpected response.
    var failures: Int
    /// The first failure, for the log.
    var firstFailure: String?

    /// Requests per second.
    var requestsPerSecond: Double { Double(requests) / seconds }
    /// CPU microseconds per request.
    var cpuMicrosecondsPerRequest: Double { cpuSeconds / Double(requests) * 1_000_000 }
}

/// What one memory case measured in its own process.
struct MemoryResult: Codable, Sendable {
    /// Resident set size before the transfer, after a warm-up request, in bytes.
    var baselineBytes: Int
    /// Peak resident set size during the transfer, in bytes.
    var peakBytes: Int
    /// Bytes received.
    var receivedBytes: Int
    /// Why the case could not run, when it could not.
    var unavailable: String?
    /// The failure, when the transfer failed.
    var failure: String?

    /// The peak over the baseline, in bytes.
    var peakOverBaseline: Int { peakBytes - baselineBytes }
}

import Foundation
import Fetch

/// The benchmark's command line.
///
/// ```
/// fetch-bench run --port P [--nginx-pid N] [--rounds 7] [--scale 1] [--only NAME] [--parts throughput,memory,ended,layers,cache]
///                 [--transfer-log PATH]
///                 [--max-connections N] [--note TEXT]...      everything, Markdown on standard output
/// fetch-bench explore --port P --case NAME --sides fetch,raw,raw-delegate,raw-hop,raw-delegate-hop [--rounds 7]
///                                                            one case through variants of the clients
///                                                            (a memory case: --case "1 GiB" --memory-rounds N)
/// fetch-bench layers [--rounds 7] [--calls 50000]            layer overhead only, no server needed
/// fetch-bench cache-hit [--rounds 9] [--calls 50000]         a fresh cache hit over a spy, no server needed
/// fetch-bench layer-calls --layer NAME [--calls 1000]         one layer of the layer overhead (or "spy alone",
///                                                            "cache hit", "cache hit with Authorization"), called N times: for callgrind
/// fetch-bench stream --port P --transfer-log PATH [--seconds 30] [--rate 1] [--buffer BYTES]
///                                                            a reader at RATE MiB/s of a fast 1 GiB stream: peak memory
/// fetch-bench streams --port P --transfer-log PATH [--rounds 5] [--probes 10] [--only TEXT]  a fast 1 GiB stream against raw URLSession with a
///                                                            bare data delegate: throughput, and small GETs
///                                                            meanwhile with the reader fast or stopped
/// fetch-bench idle [--rounds 3] [--hold 3] [--waiting 1,16,64]   CPU while requests wait on a slow server (IdleCPU.swift)
/// fetch-bench latency [--rounds 3] [--protocols h2,http1,plain] [--counts 1,16,100]   GETs at once to a server
///                      [--delays 50,200] [--starts cold,warm]   with latency, over HTTP/2 and HTTP/1.1 (Latency.swift)
/// fetch-bench free-port                                      prints a free TCP port on 127.0.0.1
/// fetch-bench load|memory|ended|stream-case ...                          one measurement (run starts these itself)
/// ```
@main
struct Main {
    static func main() {
        do {
            try dispatch(Array(CommandLine.arguments.dropFirst()))
        } catch {
            log("fetch-bench: \(error)")
            exit(1)
        }
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    private static func dispatch(_ arguments: [String]) throws {
        guard let command = arguments.first else {
            throw UsageError(description: "usage: fetch-bench run|layers|free-port …")
        }
        let options = try Options(Array(arguments.dropFirst()))
        switch command {
        case "free-port":
            guard let port = LoopbackSocket.freePort() else { throw UsageError(description: "no free port") }
            print(port)
        case "run":
            try runSuite(options)
        case "explore":
            let sides = try (options.values["sides"]?.last ?? "fetch,raw").split(separator: ",")
                .map { try Explore.Variant(String($0)) }
            try Explore.run(
                server: try server(options), settings: try settings(options),
                caseName: try options.required("case"), sides: sides)
        case "layers":
            var settings = Suite.Settings()
            settings.layerRounds = try options.int("rounds") ?? settings.layerRounds
            settings.layerCalls = try options.int("calls") ?? settings.layerCalls
            var report = Report(settings: settings)
            report.layers = try LayerOverhead.run(rounds: settings.layerRounds, calls: settings.layerCalls)
            print(report.markdown, terminator: "")
        case "layer-calls":
            try LayerOverhead.calls(layer: try options.required("layer"), count: try options.int("calls") ?? 1000)
        case "cache-hit":
            var settings = Suite.Settings()
            settings.layerRounds = try options.int("rounds") ?? settings.layerRounds
            settings.layerCalls = try options.int("calls") ?? settings.layerCalls
            let result = try CacheBench.hitCost(rounds: settings.layerRounds, calls: settings.layerCalls)
            print(CacheBench.markdown(result).joined(separator: "\n"))
        case "stream":
            let rate = try options.double("rate") ?? 1
            let bufferSize = try options.int("buffer") ?? StreamSink.defaultBufferSize
            let result = StreamRound.run(
                server: try server(options), transferLog: URL(fileURLWithPath: try options.required("transfer-log")),
                seconds: try options.double("seconds") ?? 30, rate: rate, bufferSize: bufferSize
            )
            print(StreamRound.markdown(result, rate: rate, bufferSize: bufferSize).joined(separator: "\n"))
        case "streams":
            let rounds = try options.int("rounds") ?? 5
            let probes = try options.int("probes") ?? 10
            let cases = try StreamSuite.run(
                server: try server(options), transferLog: URL(fileURLWithPath: try options.required("transfer-log")),
                rounds: rounds, probes: probes, only: options.values["only"]?.last)
            print(StreamSuite.markdown(cases, rounds: rounds, probes: probes).joined(separator: "\n"))
        case "stream-case":
            guard let reader = StreamCase.Reader(rawValue: try options.required("reader")),
                let rate = EndedTransfer.Rate(rawValue: try options.required("rate"))
            else { throw UsageError(description: "--reader is fast or stopped; --rate full or 200") }
            try Child.report(
                StreamCase.run(
                    side: try options.side(), reader: reader, rate: rate, probes: try options.requiredInt("probes"),
                    server: Server(port: try options.requiredInt("port"), masterPID: nil),
                    transferLog: URL(fileURLWithPath: try options.required("transfer-log"))))
        case "idle": try IdleCPU.command(options)
        case "idle-round": try IdleCPU.round(options)
        case "latency": try Latency.command(options)
        case "latency-round": try Latency.round(options)
        case "load":
            let server = Server(port: try options.requiredInt("port"), masterPID: nil)
            let workload = try JSONDecoder().decode(Workload.self, from: Data(try options.required("workload").utf8))
            try Child.report(LoadRound.run(workload, side: try options.side(), server: server))
        case "memory":
            let server = Server(port: try options.requiredInt("port"), masterPID: nil)
            guard let destination = MemoryRound.Destination(rawValue: try options.required("destination")) else {
                throw UsageError(description: "--destination is memory or file")
            }
            try Child.report(
                MemoryRound.run(
                    path: try options.required("path"), expectedSize: try options.requiredInt("size"),
                    destination: destination, side: try options.side(), server: server
                ))
        case "ended":
            guard let end = EndedTransfer.End(rawValue: try options.required("end")),
                let rate = EndedTransfer.Rate(rawValue: try options.required("rate"))
            else {
                throw UsageError(
                    description: "--end is cancel, too-large, deadline or download-cancel; --rate full or 200")
            }
            try Child.report(
                EndedTransfer.run(
                    end: end, rate: rate, side: try options.side(),
                    server: Server(port: try options.requiredInt("port"), masterPID: nil),
                    transferLog: URL(fileURLWithPath: try options.required("transfer-log"))
                ))
        default:
            throw UsageError(description: "unknown command \(command)")
        }
    }

    private static func server(_ options: Options) throws -> Server {
        Server(port: try options.requiredInt("port"), masterPID: try options.int("nginx-pid").map(Int32.init))
    }

    private static func settings(_ options: Options) throws -> Suite.Settings {
        var settings = Suite.Settings()
        settings.rounds = try options.int("rounds") ?? settings.rounds
        settings.memoryRounds = try options.int("memory-rounds") ?? settings.memoryRounds
        settings.scale = try options.double("scale") ?? settings.scale
        settings.maximumConnections = try options.int("max-connections")
        settings.inFlight = try options.int("in-flight")
        settings.only = options.values["only"]?.last
        settings.transferLog = options.values["transfer-log"]?.last.map { URL(fileURLWithPath: $0) }
        if let parts = options.values["parts"]?.last {
            settings.parts = Set(
                try parts.split(separator: ",").map { name in
                    guard let part = Suite.Part(rawValue: String(name)) else {
                        throw UsageError(description: "unknown part \(name)")
                    }
                    return part
                })
        }
        return settings
    }

    private static func runSuite(_ options: Options) throws {
        let settings = try settings(options)
        let server = try server(options)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let started = ContinuousClock.now
        let loadBefore = Machine.loadAverage()
        var report = try Suite(server: server, settings: settings, scratch: scratch).run()
        report.environment = Machine.description(
            settings: settings, notes: options.values["note"] ?? [],
            load: (loadBefore, Machine.loadAverage()))
        print(report.markdown, terminator: "")
        log("finished in \(Format.number((ContinuousClock.now - started).seconds)) s")
    }
}

/// `--name value` pairs; a name may repeat.
struct Options {
    var values: [String: [String]] = [:]

    init(_ arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard name.hasPrefix("--"), index + 1 < arguments.count else {
                throw Main.UsageError(description: "expected --name value at \(name)")
            }
            values[String(name.dropFirst(2)), default: []].append(arguments[index + 1])
            index += 2
        }
    }

    func required(_ name: String) throws -> String {
        guard let value = values[name]?.last else { throw Main.UsageError(description: "--\(name) is required") }
        return value
    }

    func int(_ name: String) throws -> Int? {
        guard let text = values[name]?.last else { return nil }
        guard let value = Int(text) else { throw Main.UsageError(description: "--\(name) needs a whole number") }
        return value
    }

    func double(_ name: String) throws -> Double? {
        guard let text = values[name]?.last else { return nil }
        guard let value = Double(text) else { throw Main.UsageError(description: "--\(name) needs a number") }
        return value
    }

    func requiredInt(_ name: String) throws -> Int {
        guard let value = try int(name) else { throw Main.UsageError(description: "--\(name) is required") }
        return value
    }

    func side() throws -> Side {
        guard let side = Side(rawValue: try required("side")) else {
            throw Main.UsageError(description: "--side is fetch or raw")
        }
        return side
    }
}

import Foundation
import Fetch

// Usage: swift run Example [--base-url URL]
//
// With no arguments the calls are answered in this process by a SpyPerformer that plays
// httpbin, and the download comes from a server this process starts on 127.0.0.1, so
// nothing leaves the machine. With --base-url they go through a Session to a
// live httpbin, for example one started with
//   python3 Tests/FetchIntegrationTests/Servers/httpbin_server.py

let usage = "usage: swift run Example [--base-url URL]   (for example http://127.0.0.1:8080, a running httpbin)"

var arguments = CommandLine.arguments.dropFirst()
var baseURL: URL?
while let argument = arguments.popFirst() {
    switch argument {
    case "--base-url":
        guard let text = arguments.popFirst(), let url = URL(string: text), url.scheme != nil else {
            fail("--base-url needs a URL\n\(usage)", status: 2)
        }
        baseURL = url
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        fail("unknown argument \(argument)\n\(usage)", status: 2)
    }
}

let walkthrough: Walkthrough
if let baseURL {
    print("Fetch example: live, against \(baseURL.absoluteString) through a Session.\n")
    var configuration = Session.Configuration()
    configuration.deadline = .seconds(10)
    walkthrough = Walkthrough(api: Session(configuration: configuration), baseURL: baseURL)
} else {
    // The download demo's server runs in this process on 127.0.0.1: keep it out of any
    // proxy named in the environment (libcurl would send even loopback there). Set before
    // any Session exists, so no other thread reads the environment meanwhile.
    setenv("no_proxy", "127.0.0.1,localhost", 1)
    setenv("NO_PROXY", "127.0.0.1,localhost", 1)
    print(
        """
        Fetch example: offline. A SpyPerformer in this process answers the API calls the way \
        httpbin would; the download at the end comes from a small server this process starts \
        on 127.0.0.1. Nothing leaves this machine.
        To run the same calls against a live server: swift run Example --base-url http://127.0.0.1:PORT

        """)
    walkthrough = Walkthrough(api: OfflineServer.make(), baseURL: OfflineServer.baseURL)
}

/// Prints `message` on standard error, after what was printed so far, and exits with `status`.
func fail(_ message: String, status: Int32 = 1) -> Never {
    fflush(nil)  // every output stream, so stdout comes first
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

do {
    try await walkthrough.run()
    print("\nA download to a file, with progress:")
    fflush(nil)  // the progress bar writes straight to the terminal: print what came before first
    if let baseURL {
        try await runDownloadDemo(from: baseURL.appendingPathComponent("bytes/102400"))
    } else {
        try await runDownloadDemo()
    }
    print("\nA download that loses its connection halfway, resumed by a retry (answered by a spy):")
    for line in try ResumeDemo.run() { print("   \(line)") }
    print("\nA Server-Sent Events stream, read as it arrives (answered by a spy):")
    for line in try await StreamDemo.run() { print("   \(line)") }
    print("\nDone.")
} catch let error as FetchError where [.cannotConnect, .hostNotFound, .notConnected, .timedOut].contains(error.code) {
    fail("\nCould not reach the server: \(error)\nIs httpbin running there?")
} catch {
    fail("\nThe example failed: \(error)")
}

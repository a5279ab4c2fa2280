// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Fetch",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Fetch", targets: ["Fetch"]),
        .library(name: "FetchTesting", targets: ["FetchTesting"]),
        .library(name: "FetchCaching", targets: ["FetchCaching"]),
    ],
    targets: [
        .target(name: "Fetch"),
        .target(name: "FetchTesting", dependencies: ["Fetch"]),
        // The HTTP cache and coalescing, built on Fetch's public API alone.
        .target(name: "FetchCaching", dependencies: ["Fetch"]),
        .executableTarget(name: "Example", dependencies: ["Fetch", "FetchTesting"], path: "Example"),
        // The README's code as a program's top-level code, where overloads resolve unlike in a
        // function: built with the tests, never run by them.
        .executableTarget(name: "ReadmeMain", dependencies: ["Fetch", "FetchCaching"], path: "Tests/ReadmeMain"),
        // What every test target shares: bounded waits, so no test can hang, and a locked box.
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(name: "FetchTests", dependencies: ["Fetch", "FetchCaching", "FetchTesting", "TestSupport"]),
        // Written as an app's test target would be: `import Fetch` and `import FetchTesting`
        // only (no FoundationNetworking), a service holding `any RequestPerforming`.
        .testTarget(
            name: "FetchConsumerTests", dependencies: ["Fetch", "FetchCaching", "FetchTesting", "TestSupport"]),
        .testTarget(
            name: "FetchIntegrationTests",
            dependencies: ["Fetch", "FetchCaching", "FetchTesting", "TestSupport"],
            exclude: ["Servers"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

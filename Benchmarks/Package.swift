// swift-tools-version: 6.0
import PackageDescription

// The benchmark is a package of its own so that the library's manifest stays free of
// anything but the library: it depends on Fetch by path and is built in release mode by
// run.sh.
let package = Package(
    name: "FetchBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Fetch", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "fetch-bench",
            dependencies: [
                .product(name: "Fetch", package: "Fetch"),
                .product(name: "FetchCaching", package: "Fetch"),
                .product(name: "FetchTesting", package: "Fetch"),
            ],
            path: "Sources/FetchBenchmarks"
        )
    ],
    swiftLanguageModes: [.v6]
)

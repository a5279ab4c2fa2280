#!/usr/bin/env bash
# Checks that FetchCaching is built on Fetch's public API alone: its sources are compiled as a
# module of another package, which depends on this one by path, so that Fetch's `package` and
# internal declarations are out of its reach. Exits non-zero when they do not compile there.
#
#     Scripts/public-only.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources"
ln -s "$root/Sources/FetchCaching" "$work/Sources/PublicOnly"
cat > "$work/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PublicOnly",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [.package(name: "Fetch", path: "$root")],
    targets: [.target(name: "PublicOnly", dependencies: [.product(name: "Fetch", package: "Fetch")])],
    swiftLanguageModes: [.v6]
)
MANIFEST
swift build --package-path "$work" --target PublicOnly
echo "FetchCaching compiles against Fetch's public API alone."

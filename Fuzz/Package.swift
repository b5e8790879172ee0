// swift-tools-version:6.2
// Coverage-guided fuzzing (libFuzzer) of what the collector does with untrusted bytes: the ingest body's
// decoding, validation and aggregation, what a real store then counts of it, and endpoint normalization. Its own
// package so the main package never builds with sanitizers; `scripts/fuzz` builds it with
// `-sanitize=fuzzer,address` and runs it.
import Foundation
import PackageDescription

// A path dependency's identity is its folder name, which depends on where the repository was cloned.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "decodewatch-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "FuzzBatch",
            dependencies: ["FuzzDriver", .product(name: "DecodeWatchCore", package: root)]
        ),
        .executableTarget(
            name: "FuzzIngest",
            dependencies: [
                "FuzzDriver", .product(name: "DecodeWatchCore", package: root),
                .product(name: "DecodeWatchStore", package: root),
                .product(name: "DecodeWatchStoreSQLite", package: root),
            ]
        ),
        .executableTarget(
            name: "FuzzEndpoint",
            dependencies: ["FuzzDriver", .product(name: "DecodeWatchCore", package: root)]
        ),
    ]
)

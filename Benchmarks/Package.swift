// swift-tools-version:6.2
// Benchmarks live in their own package so the main package never depends on them.
import Foundation
import PackageDescription

// A path dependency's identity is its folder name, which depends on where the repository was cloned.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "decodewatch-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: ".."), .package(path: "../SDK")],
    targets: [
        .target(name: "BenchmarkSupport"),
        // libdeflate, the inflate IngestBench measures next to zlib's (Debian: libdeflate-dev).
        .systemLibrary(
            name: "CLibdeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
        .executableTarget(
            name: "IngestBench",
            dependencies: [
                "BenchmarkSupport",
                "CLibdeflate",
                .product(name: "DecodeWatchCore", package: root),
                .product(name: "DecodeWatchZlib", package: "SDK"),
            ]
        ),
        .executableTarget(
            name: "CommitBench",
            dependencies: [
                .product(name: "DecodeWatchCore", package: root),
                .product(name: "DecodeWatchStore", package: root),
                .product(name: "DecodeWatchStoreSQLite", package: root),
                .product(name: "DecodeWatchZlib", package: "SDK"),
            ]
        ),
        .executableTarget(
            name: "AlertBench",
            dependencies: [
                .product(name: "DecodeWatchCore", package: root),
                .product(name: "DecodeWatchStore", package: root),
                .product(name: "DecodeWatchStoreSQLite", package: root),
            ]
        ),
        .executableTarget(
            name: "QueryBench",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "DecodeWatchCore", package: root),
                .product(name: "DecodeWatchStore", package: root),
                .product(name: "DecodeWatchStorePostgres", package: root),
                .product(name: "DecodeWatchStoreSQLite", package: root),
            ]
        ),
        .executableTarget(
            name: "SDKBench",
            dependencies: [.product(name: "DecodeWatch", package: "SDK")]
        ),
    ]
)

// swift-tools-version:6.2
import PackageDescription

/// The collector, its storage, its CLI and their tests. The SDK apps add is the package in `SDK/`, which
/// depends on nothing; this one depends on it by path for the wire model and zlib they share.
///
/// The SDK package's products the collector builds on.
let sdk = (
    app: Target.Dependency.product(name: "DecodeWatch", package: "SDK"),
    wire: Target.Dependency.product(name: "DecodeWatchWire", package: "SDK"),
    zlib: Target.Dependency.product(name: "DecodeWatchZlib", package: "SDK")
)

let package = Package(
    name: "decodewatch",
    platforms: [.macOS(.v14), .iOS(.v15)],
    products: [
        .library(name: "DecodeWatchCore", targets: ["DecodeWatchCore"]),
        .library(name: "DecodeWatchStore", targets: ["DecodeWatchStore"]),
        .library(name: "DecodeWatchStoreSQLite", targets: ["DecodeWatchStoreSQLite"]),
        .library(name: "DecodeWatchStorePostgres", targets: ["DecodeWatchStorePostgres"]),
        .library(name: "DecodeWatchServer", targets: ["DecodeWatchServer"]),
        .executable(name: "decodewatch", targets: ["DecodeWatchCLI"]),
    ],
    dependencies: [
        .package(path: "SDK"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // OpenAPI documents for contract drift; without its external-loading trait, which only slows the build.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", from: "6.4.0", traits: []),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // The collector's domain: validation, aggregation, grouping, the summary and the digest.
        .target(name: "DecodeWatchCore", dependencies: [sdk.wire, sdk.zlib]),
        // Reads OpenAPI 3.0 and 3.1 documents (YAML or JSON) into Core's contract model, for contract drift.
        .target(
            name: "DecodeWatchContracts",
            dependencies: [
                "DecodeWatchCore",
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // Storage: the store protocols, the SQL both databases share, the log of acknowledged batches and its folder.
        .target(
            name: "DecodeWatchStore",
            dependencies: [
                "DecodeWatchCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // The embedded default: the same protocols on one SQLite file, and its log of acknowledged batches.
        .target(
            name: "DecodeWatchStoreSQLite",
            dependencies: [
                "DecodeWatchCore",
                "DecodeWatchStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The PostgreSQL implementation of the same protocols, for several collector replicas.
        .target(
            name: "DecodeWatchStorePostgres",
            dependencies: [
                "DecodeWatchCore",
                "DecodeWatchStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The collector: buildApplication(configuration:store:), controllers and middleware.
        .target(
            name: "DecodeWatchServer",
            dependencies: [
                "DecodeWatchCore",
                sdk.zlib,
                "DecodeWatchStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The dashboard's Mustache templates and stylesheet, read from the bundle at start.
            resources: [.copy("Dashboard/Templates")]
        ),
        .executableTarget(
            name: "DecodeWatchCLI",
            dependencies: [
                sdk.app,
                sdk.wire,
                "DecodeWatchContracts",
                "DecodeWatchCore",
                "DecodeWatchServer",
                "DecodeWatchStore",
                "DecodeWatchStorePostgres",
                "DecodeWatchStoreSQLite",
                sdk.zlib,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // lld packs the binary's relative relocations (DT_RELR; glibc 2.36 or later runs it) and the binary
            // exports no symbols: the dynamic loader reads 3.7 MB fewer relocations and a 5 MB symbol table less,
            // and the collector's resident memory is 9 MB lower (BENCHMARKS.md, "what holds memory").
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker",
                        "--no-export-dynamic",
                    ],
                    .when(platforms: [.linux]))
            ]
        ),
        // What the collector's test targets share: one HTTP client for the collector, one scripted receiver, bounded
        // waits and subprocesses. Tests only; no product exposes it.
        .target(
            name: "DecodeWatchTestSupport",
            dependencies: [
                sdk.zlib,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/DecodeWatchTestSupport"
        ),
        .testTarget(name: "DecodeWatchContractsTests", dependencies: ["DecodeWatchContracts", "DecodeWatchCore"]),
        .testTarget(
            name: "DecodeWatchCoreTests",
            dependencies: ["DecodeWatchCore"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ReporterEndToEndTests",
            dependencies: [
                "DecodeWatchTestSupport",
                sdk.app,
                sdk.wire,
                sdk.zlib,
                "DecodeWatchContracts",
                "DecodeWatchServer",
                "DecodeWatchStore",
                "DecodeWatchStoreSQLite",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
        ),
        .testTarget(
            name: "DecodeWatchStoreTests",
            dependencies: [
                "DecodeWatchStore",
                "DecodeWatchStorePostgres",
                "DecodeWatchStoreSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "DecodeWatchServerTests",
            dependencies: [
                "DecodeWatchTestSupport",
                "DecodeWatchServer",
                "DecodeWatchStore",
                "DecodeWatchStoreSQLite",
                sdk.zlib,
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "DecodeWatchCLITests",
            dependencies: [
                "DecodeWatchTestSupport",
                "DecodeWatchCLI",
                "DecodeWatchStoreSQLite",
                sdk.app,
                sdk.wire,
                sdk.zlib,
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ]
)

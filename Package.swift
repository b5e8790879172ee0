// swift-tools-version:6.2
import PackageDescription

/// Every package the collector needs is behind the `Collector` trait. It is on by default, so this
/// repository builds and tests as is; an app that only uses the SDK depends on it with `traits: []`
/// and then resolves and builds no server package (SwiftPM prunes dependencies of disabled traits).
let collector = TargetDependencyCondition.when(traits: ["Collector"])

let package = Package(
    name: "decodewatch",
    platforms: [.macOS(.v14), .iOS(.v15)],
    products: [
        .library(name: "DecodeWatch", targets: ["DecodeWatch"]),
        .library(name: "DecodeWatchCore", targets: ["DecodeWatchCore"]),
        .library(name: "DecodeWatchZlib", targets: ["DecodeWatchZlib"]),
        .library(name: "DecodeWatchStore", targets: ["DecodeWatchStore"]),
        .library(name: "DecodeWatchStoreSQLite", targets: ["DecodeWatchStoreSQLite"]),
        .library(name: "DecodeWatchStorePostgres", targets: ["DecodeWatchStorePostgres"]),
        .library(name: "DecodeWatchServer", targets: ["DecodeWatchServer"]),
        .executable(name: "decodewatch", targets: ["decodewatch"]),
    ],
    traits: [
        .trait(name: "Collector", description: "The collector, its storage and the CLI, with their server packages."),
        .default(enabledTraits: ["Collector"]),
    ],
    dependencies: [
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
        // zlib from the system (Debian: zlib1g-dev; Apple platforms ship libz).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // Bounded deflate / inflate over zlib, shared by the SDK (upload) and the collector (ingest).
        .target(name: "DecodeWatchZlib", dependencies: ["CZlib"]),
        // What an app and the collector share: the wire model, endpoint and path normalization, redaction.
        // Foundation only.
        .target(name: "DecodeWatchWire"),
        // The collector's domain: validation, aggregation, grouping, the summary and the digest.
        .target(name: "DecodeWatchCore", dependencies: ["DecodeWatchWire", "DecodeWatchZlib"]),
        // Reads OpenAPI 3.0 and 3.1 documents (YAML or JSON) into Core's contract model, for contract drift.
        .target(
            name: "DecodeWatchContracts",
            dependencies: [
                "DecodeWatchCore",
                .product(name: "OpenAPIKit", package: "OpenAPIKit", condition: collector),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit", condition: collector),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit", condition: collector),
                .product(name: "Yams", package: "Yams", condition: collector),
            ]
        ),
        // The SDK apps import. Foundation and zlib only, so it builds for iOS.
        .target(name: "DecodeWatch", dependencies: ["DecodeWatchWire", "DecodeWatchZlib"]),
        // Storage: the store protocols, the SQL both databases share, the log of acknowledged batches and its folder.
        .target(
            name: "DecodeWatchStore",
            dependencies: [
                "DecodeWatchCore",
                .product(name: "Crypto", package: "swift-crypto", condition: collector),
                .product(name: "Logging", package: "swift-log", condition: collector),
                .product(name: "Metrics", package: "swift-metrics", condition: collector),
            ]
        ),
        // The embedded default: the same protocols on one SQLite file, and its log of acknowledged batches.
        .target(
            name: "DecodeWatchStoreSQLite",
            dependencies: [
                "DecodeWatchCore",
                "DecodeWatchStore",
                .product(name: "GRDB", package: "GRDB.swift", condition: collector),
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: collector),
                .product(name: "Logging", package: "swift-log", condition: collector),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: collector),
            ]
        ),
        // The PostgreSQL implementation of the same protocols, for several collector replicas.
        .target(
            name: "DecodeWatchStorePostgres",
            dependencies: [
                "DecodeWatchCore",
                "DecodeWatchStore",
                .product(name: "Logging", package: "swift-log", condition: collector),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: collector),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: collector),
            ]
        ),
        // The collector: buildApplication(configuration:store:), controllers and middleware.
        .target(
            name: "DecodeWatchServer",
            dependencies: [
                "DecodeWatchCore",
                "DecodeWatchZlib",
                "DecodeWatchStore",
                .product(name: "Hummingbird", package: "hummingbird", condition: collector),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: collector),
                .product(name: "Logging", package: "swift-log", condition: collector),
                .product(name: "Mustache", package: "swift-mustache", condition: collector),
                .product(name: "NIOCore", package: "swift-nio", condition: collector),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: collector),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: collector),
                .product(name: "Prometheus", package: "swift-prometheus", condition: collector),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: collector),
            ],
            // The dashboard's Mustache templates and stylesheet, read from the bundle at start.
            resources: [.copy("Dashboard/Templates")]
        ),
        .executableTarget(
            name: "decodewatch",
            dependencies: [
                "DecodeWatch",
                "DecodeWatchContracts",
                "DecodeWatchCore",
                "DecodeWatchServer",
                "DecodeWatchStore",
                "DecodeWatchStorePostgres",
                "DecodeWatchStoreSQLite",
                "DecodeWatchZlib",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: collector),
                .product(name: "Hummingbird", package: "hummingbird", condition: collector),
                .product(name: "Logging", package: "swift-log", condition: collector),
                .product(name: "Metrics", package: "swift-metrics", condition: collector),
                .product(name: "Prometheus", package: "swift-prometheus", condition: collector),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: collector),
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
        .testTarget(name: "DecodeWatchZlibTests", dependencies: ["DecodeWatchZlib"]),
        .testTarget(name: "DecodeWatchContractsTests", dependencies: ["DecodeWatchContracts", "DecodeWatchCore"]),
        .testTarget(
            name: "DecodeWatchCoreTests",
            dependencies: ["DecodeWatchCore"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "DecodeWatchTests",
            dependencies: [
                "DecodeWatch",
                "DecodeWatchContracts",
                "DecodeWatchServer",
                "DecodeWatchStore",
                "DecodeWatchStoreSQLite",
                .product(name: "Hummingbird", package: "hummingbird", condition: collector),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: collector),
                .product(name: "NIOCore", package: "swift-nio", condition: collector),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "DecodeWatchStoreTests",
            dependencies: [
                "DecodeWatchStore",
                "DecodeWatchStorePostgres",
                "DecodeWatchStoreSQLite",
                .product(name: "GRDB", package: "GRDB.swift", condition: collector),
                .product(name: "InMemoryLogging", package: "swift-log", condition: collector),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: collector),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: collector),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle", condition: collector),
            ]
        ),
        .testTarget(
            name: "DecodeWatchServerTests",
            dependencies: [
                "CZlib",
                "DecodeWatchServer",
                "DecodeWatchStore",
                "DecodeWatchStoreSQLite",
                "DecodeWatchZlib",
                .product(name: "GRDB", package: "GRDB.swift", condition: collector),
            ]
        ),
        .testTarget(
            name: "decodewatchTests",
            dependencies: [
                "decodewatch",
                "DecodeWatchStoreSQLite",
                "DecodeWatchZlib",
                .product(name: "GRDB", package: "GRDB.swift", condition: collector),
                .product(name: "Hummingbird", package: "hummingbird", condition: collector),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: collector),
                .product(name: "NIOCore", package: "swift-nio", condition: collector),
            ]
        ),
    ]
)

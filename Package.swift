// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "decodewatch",
    platforms: [.macOS(.v14), .iOS(.v15)],
    products: [
        .library(name: "DecodeWatch", targets: ["DecodeWatch"]),
        .library(name: "DecodeWatchCore", targets: ["DecodeWatchCore"]),
        .library(name: "DecodeWatchZlib", targets: ["DecodeWatchZlib"]),
        .library(name: "DecodeWatchStore", targets: ["DecodeWatchStore"]),
        .library(name: "DecodeWatchStorePostgres", targets: ["DecodeWatchStorePostgres"]),
        .library(name: "DecodeWatchServer", targets: ["DecodeWatchServer"]),
        .executable(name: "decodewatch", targets: ["decodewatch"]),
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
        // The contract: wire model, validation, normalization, grouping, redaction. Foundation only.
        .target(name: "DecodeWatchCore"),
        // The SDK apps import. Foundation and zlib only, so it builds for iOS.
        .target(name: "DecodeWatch", dependencies: ["DecodeWatchCore", "DecodeWatchZlib"]),
        // Storage: the store protocols, the SQL both databases share, and the SQLite implementation.
        .target(
            name: "DecodeWatchStore",
            dependencies: [
                "DecodeWatchCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The PostgreSQL implementation of the same protocols, for several collector replicas.
        .target(
            name: "DecodeWatchStorePostgres",
            dependencies: [
                "DecodeWatchCore",
                "DecodeWatchStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The collector: buildApplication(configuration:store:), controllers and middleware.
        .target(
            name: "DecodeWatchServer",
            dependencies: [
                "DecodeWatchCore",
                "DecodeWatchZlib",
                "DecodeWatchStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The dashboard's Mustache templates and stylesheet, read from the bundle at start.
            resources: [.copy("Dashboard/Templates")]
        ),
        .executableTarget(
            name: "decodewatch",
            dependencies: [
                "DecodeWatch",
                "DecodeWatchCore",
                "DecodeWatchServer",
                "DecodeWatchStore",
                "DecodeWatchStorePostgres",
                "DecodeWatchZlib",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "DecodeWatchZlibTests", dependencies: ["DecodeWatchZlib"]),
        .testTarget(
            name: "DecodeWatchCoreTests",
            dependencies: ["DecodeWatchCore"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "DecodeWatchTests",
            dependencies: ["DecodeWatch", "DecodeWatchServer", "DecodeWatchStore"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "DecodeWatchStoreTests",
            dependencies: [
                "DecodeWatchStore",
                "DecodeWatchStorePostgres",
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
                "CZlib",
                "DecodeWatchServer",
                "DecodeWatchStore",
                "DecodeWatchZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(name: "decodewatchTests", dependencies: ["decodewatch"]),
    ]
)

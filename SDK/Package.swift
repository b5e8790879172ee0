// swift-tools-version:6.0
import PackageDescription

/// The DecodeWatch SDK: what an app adds to report the decoding failures its lenient wrappers swallow.
///
/// It depends on no other package (Foundation and the system's zlib only), so an app that adds it resolves
/// exactly this one. The collector's package depends on it by path for the wire model and zlib it shares.
let package = Package(
    name: "DecodeWatchSDK",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        // The library apps add.
        .library(name: "DecodeWatch", targets: ["DecodeWatch"]),
        // What the collector shares with the SDK; an app has no need of them.
        .library(name: "DecodeWatchWire", targets: ["DecodeWatchWire"]),
        .library(name: "DecodeWatchZlib", targets: ["DecodeWatchZlib"]),
    ],
    targets: [
        // The system's zlib (Apple platforms ship libz; Debian: zlib1g-dev).
        .systemLibrary(name: "DecodeWatchCZlib"),
        // Bounded deflate / inflate over zlib: the SDK compresses uploads, the collector inflates them.
        .target(name: "DecodeWatchZlib", dependencies: ["DecodeWatchCZlib"]),
        // What an app and the collector share: the wire model, endpoint and path normalization, redaction.
        .target(name: "DecodeWatchWire"),
        // The SDK apps import, with the privacy manifest App Store Connect reads.
        .target(
            name: "DecodeWatch",
            dependencies: ["DecodeWatchWire", "DecodeWatchZlib"],
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        .testTarget(name: "DecodeWatchZlibTests", dependencies: ["DecodeWatchZlib"]),
        .testTarget(name: "DecodeWatchTests", dependencies: ["DecodeWatch", "DecodeWatchWire", "DecodeWatchZlib"], exclude: ["Fixtures"]),
    ]
)

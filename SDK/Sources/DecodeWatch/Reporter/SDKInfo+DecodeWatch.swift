@_spi(WireInternals) import DecodeWatchWire

extension SDKInfo {
    /// The version of DecodeWatch: this SDK, and the collector and `decodewatch` released with it
    /// (`decodewatch --version`).
    ///
    /// The one place the version is written: `scripts/sdk-package` tags the SDK's release with it, and every
    /// batch reports it as `sdk.version`.
    public static let decodeWatchVersion = "0.1.0"

    /// This SDK, as it names itself in every batch.
    public static let decodeWatch = SDKInfo(name: "decodewatch-swift", version: decodeWatchVersion)
}

/// The limits of `POST /v1/reports` (docs/wire-format.md#limits). All are defaults the operator can change.
public struct IngestLimits: Sendable, Hashable {
    /// Largest accepted request body as sent (compressed), in bytes. Default 1 MiB.
    public var maxCompressedBytes: Int
    /// Largest accepted body after inflating, in bytes. Default 16 MiB.
    public var maxInflatedBytes: Int
    /// Largest accepted inflated-to-compressed ratio. Default 100.
    public var maxInflationRatio: Int
    /// Inflated size below which the ratio is not checked (small bodies compress well). Default 64 KiB.
    public var ratioCheckMinimumBytes: Int
    /// Most reports in one batch. Default 1000.
    public var maxReports: Int

    /// Creates limits; every argument defaults to docs/wire-format.md#limits.
    public init(
        maxCompressedBytes: Int = 1 << 20, maxInflatedBytes: Int = 16 << 20, maxInflationRatio: Int = 100,
        ratioCheckMinimumBytes: Int = 64 << 10, maxReports: Int = 1000
    ) {
        self.maxCompressedBytes = maxCompressedBytes
        self.maxInflatedBytes = maxInflatedBytes
        self.maxInflationRatio = maxInflationRatio
        self.ratioCheckMinimumBytes = ratioCheckMinimumBytes
        self.maxReports = maxReports
    }

    /// The limits a batch decoded again from a log of batches already acknowledged is held to: none that a
    /// collector can be configured with. It was acknowledged under the limits in force then, which may have been
    /// wider than a restarted collector's: refusing it now would lose it.
    public static let acknowledged = IngestLimits(
        maxCompressedBytes: 1 << 40, maxInflatedBytes: 1 << 40, maxInflationRatio: 1 << 40, ratioCheckMinimumBytes: 0,
        maxReports: 1 << 40)

    /// The field limits of docs/wire-format.md#limits.
    enum Field {
        static let appID = 200
        static let shortString = 64
        static let installID = 128
        static let batchID = 200
        static let endpoint = 2048
        static let typeName = 200
        static let pathElements = 64
        static let message = 1000
        static let snippetBytes = 2048
        static let reportCount = 1...1_000_000
        /// One batch period of one device: a billion decodes is far beyond any real client.
        static let decodeCount = 0...1_000_000_000
    }
}

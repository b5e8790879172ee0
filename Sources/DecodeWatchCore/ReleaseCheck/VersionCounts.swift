@_spi(WireInternals) import DecodeWatchWire

/// What storage knows about one app version in a window: its decodes per endpoint and its reports per group, the
/// numbers a release check (``ReleaseJudge``) judges.
public struct VersionCounts: Sendable, Hashable {
    /// Decodes the version's batches reported per normalized endpoint. An endpoint the version never sent decodes
    /// for (or whose decodes predate per-version counts) is absent.
    public var decodes: [String: Int]
    /// The groups the version reported in the window, with its report count in each.
    public var fields: [VersionField]

    /// Creates the counts of a version.
    public init(decodes: [String: Int], fields: [VersionField]) {
        self.decodes = decodes
        self.fields = fields
    }

    /// No decodes and no reports: what an unknown app or version has.
    public static let empty = VersionCounts(decodes: [:], fields: [])

    /// Every decode of the version in the window, over all endpoints.
    public var totalDecodes: Int {
        decodes.values.saturatingSum()
    }
}

/// One group's reports of one app version in a window.
public struct VersionField: Sendable, Hashable {
    /// Stable group id.
    public var group: String
    /// Normalized endpoint.
    public var endpoint: String
    /// Rendered JSONPath.
    public var path: String
    /// Failure kind.
    public var kind: ReportKind
    /// Sum of the version's report counts in the window.
    public var count: Int

    /// Creates a group's counts.
    public init(group: String, endpoint: String, path: String, kind: ReportKind, count: Int) {
        self.group = group
        self.endpoint = endpoint
        self.path = path
        self.kind = kind
        self.count = count
    }
}

import DecodeWatchWire
import Foundation

/// The breaking-fields summary (docs/api.md#breaking-fields), returned by `GET /v1/fields` and `decodewatch fields
/// --format json`.
public struct FieldsSummary: Codable, Sendable, Hashable {
    /// Start of the window.
    public var since: Date
    /// End of the window.
    public var until: Date
    /// One entry per group with reports in the window, by count descending then group ascending.
    public var fields: [FieldSummary]

    /// Creates a summary.
    public init(since: Date, until: Date, fields: [FieldSummary]) {
        self.since = since
        self.until = until
        self.fields = fields
    }

    enum CodingKeys: String, CodingKey { case since, until, fields }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        since = try RFC3339.decode(container, .since)
        until = try RFC3339.decode(container, .until)
        fields = try container.decode([FieldSummary].self, forKey: .fields)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(RFC3339.string(from: since), forKey: .since)
        try container.encode(RFC3339.string(from: until), forKey: .until)
        try container.encode(fields, forKey: .fields)
    }
}

/// One breaking field: a group and its numbers in the window (docs/api.md#summary-fields, `fields[]`).
public struct FieldSummary: Codable, Sendable, Hashable {
    /// Stable group id.
    public var group: String
    /// App id.
    public var app: String
    /// Normalized endpoint.
    public var endpoint: String
    /// Rendered JSONPath.
    public var path: String
    /// Failure kind.
    public var kind: ReportKind
    /// Most frequent expected type in the window.
    public var expected: String?
    /// Sum of report counts in the window.
    public var count: Int
    /// Distinct installs in the window; an estimate within 2 % above 1,000 (docs/api.md#installs-and-rates).
    public var installs: Int
    /// `count` ÷ decodes of the endpoint in the window; `nil` when no decodes were reported.
    public var rate: Double?
    /// When the group was first seen, ever.
    public var firstSeen: Date
    /// When the group was last seen, ever.
    public var lastSeen: Date
    /// Report counts per app version in the window.
    public var versions: [String: Int]
    /// Lifecycle status relative to the window.
    public var status: GroupStatus
    /// The latest report's redacted snippet and message.
    public var sample: Sample
    /// Who owns the failure according to the app's contract (README, "Contract drift"); `nil`, and left
    /// out of the JSON, when the app has no contract.
    public var drift: DriftJudgement?

    /// Creates an entry.
    public init(
        group: String, app: String, endpoint: String, path: String, kind: ReportKind, expected: String?, count: Int,
        installs: Int, rate: Double?, firstSeen: Date, lastSeen: Date, versions: [String: Int], status: GroupStatus,
        sample: Sample, drift: DriftJudgement? = nil
    ) {
        self.group = group
        self.app = app
        self.endpoint = endpoint
        self.path = path
        self.kind = kind
        self.expected = expected
        self.count = count
        self.installs = installs
        self.rate = rate
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.versions = versions
        self.status = status
        self.sample = sample
        self.drift = drift
    }

    enum CodingKeys: String, CodingKey {
        case group, app, endpoint, path, kind, expected, count, installs, rate, versions, status, sample, drift
        case firstSeen = "first_seen"
        case lastSeen = "last_seen"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        group = try container.decode(String.self, forKey: .group)
        app = try container.decode(String.self, forKey: .app)
        endpoint = try container.decode(String.self, forKey: .endpoint)
        path = try container.decode(String.self, forKey: .path)
        kind = try container.decode(ReportKind.self, forKey: .kind)
        expected = try container.decodeIfPresent(String.self, forKey: .expected)
        count = try container.decode(Int.self, forKey: .count)
        installs = try container.decode(Int.self, forKey: .installs)
        rate = try container.decodeIfPresent(Double.self, forKey: .rate)
        firstSeen = try RFC3339.decode(container, .firstSeen)
        lastSeen = try RFC3339.decode(container, .lastSeen)
        versions = try container.decode([String: Int].self, forKey: .versions)
        status = try container.decode(GroupStatus.self, forKey: .status)
        sample = try container.decode(Sample.self, forKey: .sample)
        drift = try container.decodeIfPresent(DriftJudgement.self, forKey: .drift)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(group, forKey: .group)
        try container.encode(app, forKey: .app)
        try container.encode(endpoint, forKey: .endpoint)
        try container.encode(path, forKey: .path)
        try container.encode(kind, forKey: .kind)
        try container.encode(expected, forKey: .expected)
        try container.encode(count, forKey: .count)
        try container.encode(installs, forKey: .installs)
        try container.encode(rate, forKey: .rate)
        try container.encode(RFC3339.string(from: firstSeen), forKey: .firstSeen)
        try container.encode(RFC3339.string(from: lastSeen), forKey: .lastSeen)
        try container.encode(versions, forKey: .versions)
        try container.encode(status, forKey: .status)
        try container.encode(sample, forKey: .sample)
        try container.encodeIfPresent(drift, forKey: .drift)
    }
}

extension RFC3339 {
    /// Decodes a required RFC 3339 string field.
    static func decode<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> Date {
        let text = try container.decode(String.self, forKey: key)
        guard let date = date(from: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "'\(text)' is not an RFC 3339 time")
        }
        return date
    }
}

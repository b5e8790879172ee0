@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// The breaking-fields summary (docs/api.md#breaking-fields), returned by `GET /v1/fields` and `decodewatch fields
/// --format json`.
public struct FieldsSummary: Codable, Sendable, Hashable {
    /// Start of the window.
    @RFC3339Coded public var since: Date
    /// End of the window.
    @RFC3339Coded public var until: Date
    /// One entry per group with reports in the window, by count descending then group ascending.
    public var fields: [FieldSummary]
    /// Filter values no stored batch ever carried, so that an empty list is not read as "nothing broke".
    public var warnings: [QueryWarning]

    /// Creates a summary.
    public init(since: Date, until: Date, fields: [FieldSummary], warnings: [QueryWarning] = []) {
        self.since = since
        self.until = until
        self.fields = fields
        self.warnings = warnings
    }

    enum CodingKeys: String, CodingKey {
        case since, until, fields, warnings
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        _since = try container.decode(RFC3339Coded.self, forKey: .since)
        _until = try container.decode(RFC3339Coded.self, forKey: .until)
        fields = try container.decode([FieldSummary].self, forKey: .fields)
        // Collectors before warnings sent none.
        warnings = try container.decodeIfPresent([QueryWarning].self, forKey: .warnings) ?? []
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
    @NullEncoded public var expected: String?
    /// Sum of report counts in the window.
    public var count: Int
    /// Distinct installs in the window; an estimate within 2 % above 1,000 (docs/api.md#installs-and-rates).
    public var installs: Int
    /// `count` ÷ decodes of the endpoint in the window; `nil` when no decodes were reported.
    @NullEncoded public var rate: Double?
    /// When the group was first seen, ever.
    @RFC3339Coded public var firstSeen: Date
    /// When the group was last seen, ever.
    @RFC3339Coded public var lastSeen: Date
    /// Report counts per app version in the window.
    public var versions: [String: Int]
    /// Status relative to the window, `muted` while a mute is in force.
    public var status: GroupStatus
    /// When the mute ends, for a `muted` group; `nil`, and left out of the JSON, otherwise.
    public var mute: FieldMute?
    /// The latest report's redacted snippet and message.
    public var sample: Sample
    /// Who owns the failure according to the app's contract (docs/triage.md, "Contract drift"); `nil`, and left
    /// out of the JSON, when the app has no contract.
    public var drift: DriftJudgement?
    /// The fix, written (docs/api.md#suggested-fixes): set by ``FieldsSummary/withSuggestions()``, as `GET /v1/fields`
    /// answers; `nil`, and left out of the JSON, before that.
    public var suggestion: Suggestion?

    /// Creates an entry.
    public init(
        group: String, app: String, endpoint: String, path: String, kind: ReportKind, expected: String?, count: Int,
        installs: Int, rate: Double?, firstSeen: Date, lastSeen: Date, versions: [String: Int], status: GroupStatus,
        sample: Sample, mute: FieldMute? = nil, drift: DriftJudgement? = nil, suggestion: Suggestion? = nil
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
        self.mute = mute
        self.sample = sample
        self.drift = drift
        self.suggestion = suggestion
    }

    enum CodingKeys: String, CodingKey {
        case group, app, endpoint, path, kind, expected, count, installs, rate, versions, status, mute, sample, drift
        case suggestion
        case firstSeen = "first_seen"
        case lastSeen = "last_seen"
    }
}

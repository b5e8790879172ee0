import DecodeWatchWire
import Foundation

/// Contract drift over a window: one entry per breaking group of an app that has a contract, with its
/// verdict. Returned by `GET /v1/drift` and `decodewatch drift --format json`.
public struct DriftReport: Codable, Sendable, Hashable {
    /// Start of the window.
    public var since: Date
    /// End of the window.
    public var until: Date
    /// How many entries have each verdict, by the verdict's name; every verdict is present.
    public var totals: [String: Int]
    /// The entries, in the order of the breaking-fields summary (count descending).
    public var entries: [DriftEntry]

    /// Creates a report from the breaking-fields summary of the same window.
    /// - Parameters:
    ///   - summary: the summary, whose fields carry their verdicts (``ContractSet/annotating(_:)``).
    ///   - verdict: only entries with this verdict, when set.
    public init(summary: FieldsSummary, verdict: DriftVerdict? = nil) {
        since = summary.since
        until = summary.until
        let judged = summary.fields.compactMap { field in field.drift.map { DriftEntry(field, $0) } }
        var totals = Dictionary(uniqueKeysWithValues: DriftVerdict.allCases.map { ($0.rawValue, 0) })
        for entry in judged { totals[entry.verdict.rawValue, default: 0] += 1 }
        self.totals = totals
        entries = judged.filter { verdict == nil || $0.verdict == verdict }
    }

    enum CodingKeys: String, CodingKey { case since, until, totals, entries }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        since = try RFC3339.decode(container, .since)
        until = try RFC3339.decode(container, .until)
        totals = try container.decode([String: Int].self, forKey: .totals)
        entries = try container.decode([DriftEntry].self, forKey: .entries)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(RFC3339.string(from: since), forKey: .since)
        try container.encode(RFC3339.string(from: until), forKey: .until)
        try container.encode(totals, forKey: .totals)
        try container.encode(entries, forKey: .entries)
    }
}

/// One group's drift: where it breaks, the verdict and its reason, what the spec says, and how much it breaks.
public struct DriftEntry: Codable, Sendable, Hashable {
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
    /// The type the app expected, when reported.
    public var expected: String?
    /// Who owns it.
    public var verdict: DriftVerdict
    /// Why, in one sentence.
    public var reason: String
    /// What the contract says at the field; `nil` when no spec of the app describes the operation.
    public var spec: SpecView?
    /// Sum of report counts in the window.
    public var count: Int
    /// `count` ÷ decodes of the endpoint in the window; `nil` when no decodes were reported.
    public var rate: Double?
    /// Report counts per app version in the window.
    public var versions: [String: Int]

    /// Creates an entry from a summary field and its verdict.
    public init(_ field: FieldSummary, _ judgement: DriftJudgement) {
        group = field.group
        app = field.app
        endpoint = field.endpoint
        path = field.path
        kind = field.kind
        expected = field.expected
        verdict = judgement.verdict
        reason = judgement.reason
        spec = judgement.spec
        count = field.count
        rate = field.rate
        versions = field.versions
    }

    enum CodingKeys: String, CodingKey {
        case group, app, endpoint, path, kind, expected, verdict, reason, spec, count, rate, versions
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(group, forKey: .group)
        try container.encode(app, forKey: .app)
        try container.encode(endpoint, forKey: .endpoint)
        try container.encode(path, forKey: .path)
        try container.encode(kind, forKey: .kind)
        try container.encode(expected, forKey: .expected)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(reason, forKey: .reason)
        try container.encode(spec, forKey: .spec)
        try container.encode(count, forKey: .count)
        try container.encode(rate, forKey: .rate)
        try container.encode(versions, forKey: .versions)
    }
}

@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Contract drift over a window: one entry per breaking group of an app that has a contract, with its
/// verdict. Returned by `GET /v1/drift` and `decodewatch drift --format json`.
public struct DriftReport: Codable, Sendable, Hashable {
    /// Start of the window.
    @RFC3339Coded public var since: Date
    /// End of the window.
    @RFC3339Coded public var until: Date
    /// How many entries have each verdict, by the verdict's name; every verdict is present.
    public var totals: [String: Int]
    /// The entries, in the order of the breaking-fields summary (count descending).
    public var entries: [DriftEntry]
    /// The summary's ``FieldsSummary/warnings``: filter values never stored.
    public var warnings: [QueryWarning]

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
        warnings = summary.warnings
    }

    enum CodingKeys: String, CodingKey {
        case since, until, totals, entries, warnings
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        _since = try container.decode(RFC3339Coded.self, forKey: .since)
        _until = try container.decode(RFC3339Coded.self, forKey: .until)
        totals = try container.decode([String: Int].self, forKey: .totals)
        entries = try container.decode([DriftEntry].self, forKey: .entries)
        // Collectors before warnings sent none.
        warnings = try container.decodeIfPresent([QueryWarning].self, forKey: .warnings) ?? []
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
    @NullEncoded public var expected: String?
    /// Who owns it.
    public var verdict: DriftVerdict
    /// Why, in one sentence.
    public var reason: String
    /// What the contract says at the field; `nil` when no spec of the app describes the operation.
    @NullEncoded public var spec: SpecView?
    /// Sum of report counts in the window.
    public var count: Int
    /// `count` ÷ decodes of the endpoint in the window; `nil` when no decodes were reported.
    @NullEncoded public var rate: Double?
    /// Report counts per app version in the window.
    public var versions: [String: Int]
}

extension DriftEntry {
    /// Creates an entry from a summary field and its verdict.
    public init(_ field: FieldSummary, _ judgement: DriftJudgement) {
        self.init(
            group: field.group, app: field.app, endpoint: field.endpoint, path: field.path, kind: field.kind,
            expected: field.expected, verdict: judgement.verdict, reason: judgement.reason, spec: judgement.spec,
            count: field.count, rate: field.rate, versions: field.versions)
    }
}

@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// The answer of a release check (docs/api.md#release-check), returned by `GET /v1/check` and
/// `decodewatch check --format json`.
public struct ReleaseVerdict: Encodable, Sendable, Hashable {
    /// The outcome of a check.
    public enum Outcome: String, Encodable, Sendable, CaseIterable {
        /// No field fails and every field could be judged.
        case pass
        /// At least one field fails.
        case fail
        /// Too few decodes of the version to judge, or a field whose rate cannot be computed: never a silent pass.
        case insufficient
    }

    /// The outcome.
    public var verdict: Outcome
    /// The app id.
    public var app: String
    /// The version judged.
    public var version: String
    /// The version it was compared with, or `nil`.
    @NullEncoded public var baseline: String?
    /// Start of the window.
    @RFC3339Coded public var since: Date
    /// End of the window.
    @RFC3339Coded public var until: Date
    /// Every decode of the version in the window, over all endpoints.
    public var decodes: Int
    /// The fields that fail, then those that cannot be judged, each with its reason; highest rate first.
    public var fields: [CheckedField]

    /// One sentence saying what the verdict means, for people (text output, standard error).
    public var summary: String {
        let compared = baseline.map { " against \($0)" } ?? ""
        switch verdict {
        case .pass:
            return "\(app) \(version) passes\(compared): no field reaches the thresholds over \(decodes) decodes."
        case .fail:
            let failing = fields.filter { $0.outcome == .fail }.count
            return "\(app) \(version) fails\(compared): \(failing) field\(failing == 1 ? "" : "s") over the thresholds."
        case .insufficient where fields.isEmpty:
            return decodes == 0
                ? "\(app) \(version) cannot be judged: no decodes of this app and version were recorded in the window "
                    + "(an unknown app or version, or a client that does not send decode counts)."
                : "\(app) \(version) cannot be judged: only \(decodes) decodes in the window."
        case .insufficient:
            return "\(app) \(version) cannot be judged: some fields have no rate to compare (see their reasons)."
        }
    }
}

/// A field a release check names (`fields[]` of ``ReleaseVerdict``).
public struct CheckedField: Encodable, Sendable, Hashable {
    /// Stable group id.
    public var group: String
    /// Rendered JSONPath.
    public var path: String
    /// Normalized endpoint.
    public var endpoint: String
    /// Failure kind.
    public var kind: ReportKind
    /// Its reports of the version ÷ the version's decodes of its endpoint; `nil` when there were none.
    @NullEncoded public var rate: Double?
    /// The same for the baseline: `0` when the baseline decoded the endpoint without this failure, `nil` without a
    /// baseline or without the baseline's decodes of the endpoint.
    @NullEncoded public var baselineRate: Double?
    /// Its reports of the version in the window.
    public var count: Int
    /// Why it is named, in one sentence.
    public var reason: String
    /// Whether it fails or cannot be judged; not encoded (the reason says it).
    public var outcome: ReleaseVerdict.Outcome

    enum CodingKeys: String, CodingKey {
        case group, path, endpoint, kind, rate, count, reason
        case baselineRate = "baseline_rate"
    }
}

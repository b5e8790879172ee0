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
    /// Every decode of the baseline in the window, or `nil` without a baseline: with none, nothing can be compared.
    @NullEncoded public var baselineDecodes: Int? = nil
    /// The fields that fail, then those that cannot be judged, each with its reason; highest rate first.
    public var fields: [CheckedField]
    /// The app, versions or environment that no stored batch ever carried (``QueryWarning``).
    public var warnings: [QueryWarning] = []

    /// One sentence saying what the verdict means, for people (text output, standard error).
    public var summary: String {
        let compared = baseline.map { " against \($0)" } ?? ""
        switch verdict {
        case .pass:
            return "\(app) \(version) passes\(compared): no field reaches the thresholds over \(Plural.count(decodes, "decode"))."
        case .fail:
            let failing = fields.filter { $0.outcome == .fail }.count
            return "\(app) \(version) fails\(compared): \(Plural.count(failing, "field")) over the thresholds."
        case .insufficient where fields.isEmpty:
            if decodes == 0 {
                return "\(app) \(version) cannot be judged: no decodes of this app and version were recorded in the "
                    + "window (an unknown app or version, or a client that does not send decode counts)."
            }
            if let baseline, baselineDecodes == 0 {
                return "\(app) \(version) cannot be judged against \(baseline): no decodes of \(baseline) were recorded "
                    + "in the window (an unknown version, or a client that does not send decode counts); "
                    + "choose a baseline that ran in the window, or a wider --since."
            }
            return "\(app) \(version) cannot be judged: only \(Plural.count(decodes, "decode")) in the window."
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

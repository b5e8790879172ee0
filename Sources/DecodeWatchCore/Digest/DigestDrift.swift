/// The digest's contract-drift section: how many fields of the period have each verdict, and the fields
/// where the backend breaks its own spec, the ones a backend team can act on at once.
public struct DigestDrift: Codable, Sendable, Hashable {
    /// Fields per verdict, by the verdict's name.
    public var totals: [String: Int]
    /// The fields where the backend breaks its spec, most failures first, at most ``limit``.
    public var backend: [DriftEntry]

    /// The most backend fields listed.
    public static let limit = 10

    /// Creates the section from the period's drift report.
    /// - Returns: `nil` when no field of the period was judged (no app has a contract).
    public init?(_ report: DriftReport) {
        guard !report.entries.isEmpty else { return nil }
        totals = report.totals
        backend = Array(report.entries.filter { $0.verdict == .backendViolatesSpec }.prefix(Self.limit))
    }

    /// "3 fields where the backend breaks its spec".
    public var headline: String {
        let count = totals[DriftVerdict.backendViolatesSpec.rawValue] ?? 0
        return "\(Plural.count(count, "field")) where the backend breaks its spec"
    }

    /// The other verdicts in one line: "2 app stricter than spec, 1 not in spec, 0 unknown".
    public var others: String {
        [DriftVerdict.appStricterThanSpec, .notInSpec, .unknown].map { "\(totals[$0.rawValue] ?? 0) \($0.label)" }
            .joined(separator: ", ")
    }
}

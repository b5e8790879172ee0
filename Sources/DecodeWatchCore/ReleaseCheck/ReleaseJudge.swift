import Foundation

/// Judges a version's fields against the thresholds of a release check (docs/api.md#release-check).
///
/// A field fails when its rate (its reports of the version ÷ the version's decodes of its endpoint) is at least
/// `maxRate` and, with a baseline, at least `maxRatio` times its baseline rate; a field the baseline never reported
/// is new and fails on the rate alone. Rates are compared as exact fractions, so a rate exactly at a threshold
/// fails. A rate that cannot be computed is never guessed: the field cannot be judged, and neither can the version.
public enum ReleaseJudge {
    /// The verdict on a version.
    /// - Parameters:
    ///   - query: the version, window and thresholds.
    ///   - current: the version's decodes and reports in the window.
    ///   - baseline: the baseline's, when the query names one.
    /// - Returns: `insufficient` when the version has fewer than `minDecodes` decodes, or a baseline has none (no
    ///   field is then judged); otherwise `fail` when a field fails, `insufficient` when a field reaching the thresholds cannot be
    ///   compared, and `pass`.
    public static func judge(
        _ query: ReleaseCheckQuery, current: VersionCounts, baseline: VersionCounts?
    ) -> ReleaseVerdict {
        let decodes = current.totalDecodes
        var verdict = ReleaseVerdict(
            verdict: .pass, app: query.app, version: query.version, baseline: query.baseline, since: query.since,
            until: query.until, decodes: decodes, baselineDecodes: baseline?.totalDecodes, fields: [])
        // A baseline without decodes has no rate to compare with: judging on the rate alone would pass a version
        // the comparison asked for was never made for.
        guard decodes >= query.minDecodes, verdict.baselineDecodes != 0 else {
            verdict.verdict = .insufficient
            return verdict
        }
        let baselineCounts = Dictionary(
            (baseline?.fields ?? []).map { ($0.group, $0.count) }, uniquingKeysWith: { $0.addingSaturating($1) })
        let named = current.fields.compactMap { field in
            judge(
                field, decodes: current.decodes[field.endpoint] ?? 0, query: query,
                baseline: baseline.map {
                    (decodes: $0.decodes[field.endpoint] ?? 0, count: baselineCounts[field.group] ?? 0)
                })
        }
        // Failing fields first, then those that cannot be judged; each by rate descending (unknown first), then id.
        func order(_ field: CheckedField) -> (Int, Double, String) {
            (field.outcome == .fail ? 0 : 1, -(field.rate ?? .infinity), field.group)
        }
        verdict.fields = named.sorted { order($0) < order($1) }
        if named.contains(where: { $0.outcome == .fail }) {
            verdict.verdict = .fail
        } else if !named.isEmpty {
            verdict.verdict = .insufficient
        }
        return verdict
    }

    /// One field's judgement: `nil` when it passes, otherwise the entry naming it.
    /// - Parameters:
    ///   - decodes: the version's decodes of the field's endpoint.
    ///   - baseline: the baseline's decodes of the endpoint and reports of the field, when there is a baseline.
    private static func judge(
        _ field: VersionField, decodes: Int, query: ReleaseCheckQuery, baseline: (decodes: Int, count: Int)?
    ) -> CheckedField? {
        let version = query.version
        func entry(_ outcome: ReleaseVerdict.Outcome, baselineRate: Double?, _ reason: String) -> CheckedField {
            CheckedField(
                group: field.group, path: field.path, endpoint: field.endpoint, kind: field.kind,
                rate: decodes > 0 ? Double(field.count) / Double(decodes) : nil, baselineRate: baselineRate,
                count: field.count, reason: reason, outcome: outcome)
        }
        let baselineRate = baseline.flatMap { $0.decodes > 0 ? Double($0.count) / Double($0.decodes) : nil }
        guard decodes > 0 else {
            return entry(
                .insufficient, baselineRate: baselineRate,
                "\(version) sent no decodes of \(field.endpoint), so the rate of its \(Plural.count(field.count, "failure")) is unknown."
            )
        }
        // count ÷ decodes ≥ maxRate, without dividing.
        guard Decimal(field.count) >= query.maxRate * Decimal(decodes) else { return nil }
        // The numbers are in the entry's fields; the reason says which thresholds they reach.
        let atRate = "its rate is at least the maximum of \(percent(query.maxRate))"
        guard let baseline, let name = query.baseline else {
            return entry(.fail, baselineRate: nil, "I\(atRate.dropFirst()).")
        }
        guard baseline.count > 0 else {
            return entry(.fail, baselineRate: baselineRate, "New in \(version) (no reports in \(name)), and \(atRate).")
        }
        guard baseline.decodes > 0 else {
            return entry(
                .insufficient, baselineRate: nil,
                "I\(atRate.dropFirst()), but \(name) sent no decodes of \(field.endpoint), so the ratio to its rate "
                    + "there is unknown.")
        }
        // rate ≥ maxRatio × baseline rate, without dividing: count × baseline decodes ≥ maxRatio × baseline count
        // × decodes.
        guard
            Decimal(field.count) * Decimal(baseline.decodes)
                >= query.maxRatio * Decimal(baseline.count) * Decimal(decodes)
        else { return nil }
        let ratio = (Decimal(field.count) * Decimal(baseline.decodes)) / (Decimal(baseline.count) * Decimal(decodes))
        return entry(
            .fail, baselineRate: baselineRate,
            "I\(atRate.dropFirst()), and \(number(ratio))× its rate in \(name) (maximum \(number(query.maxRatio))×).")
    }

    /// A fraction as a percentage of at most 3 decimals, e.g. `1.25%`.
    static func percent(_ fraction: Decimal) -> String {
        number(fraction * 100) + "%"
    }

    /// A decimal rounded to at most 3 decimals, without trailing zeros.
    static func number(_ value: Decimal) -> String {
        var value = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 3, .plain)
        return "\(rounded)"
    }
}

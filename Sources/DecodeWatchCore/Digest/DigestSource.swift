import Foundation

/// What a digest is built from, read from storage: the breaking fields, hourly series, lifecycles and totals of a
/// period and the one before. Every store that serves digests provides it (`DigestStore`).
public protocol DigestSource: Sendable {
    /// The breaking-fields summary of docs/api.md#breaking-fields.
    /// - Parameter query: filters and window.
    /// - Returns: one entry per group with reports in the window.
    func fields(_ query: FieldsQuery) async throws -> FieldsSummary

    /// Failures per group and hour for a page of groups.
    /// - Parameters:
    ///   - groups: the group ids.
    ///   - environment: only the failures of this environment, or of every environment for `nil`.
    ///   - since: the first hour read is the one containing `since`.
    ///   - until: hours starting at or after `until` are not read.
    /// - Returns: group id → hour index → count; hours without failures are absent.
    func hourlyCounts(groups: [String], environment: String?, since: Date, until: Date) async throws
        -> [String: [Int64: Int]]

    /// The stored lifecycle of a page of groups.
    /// - Parameters:
    ///   - groups: the group ids; unknown ids are absent from the answer.
    ///   - environment: with a name, first seen is the group's first report in that environment.
    func lifecycles(groups: [String], environment: String?) async throws -> [String: GroupLifecycle]

    /// When the first report of the app(s) that storage still holds occurred, or `nil` when it holds none: a
    /// digest of a period before it has no data, which is not the same as nothing breaking.
    /// - Parameters:
    ///   - app: only this app's reports, or every app's.
    ///   - environment: only this environment's reports, or every environment's.
    func firstReport(app: String?, environment: String?) async throws -> Date?

    /// Totals over every group in a window (hourly rollups, like ``fields(_:)``): exact, but for
    /// installs, estimated within 2 % once a bucket of the window has more than 1,000 (docs/api.md#installs-and-rates).
    /// - Parameters:
    ///   - app: only this app, or every app.
    ///   - environment: only this environment's failures and installs, or every environment's for `nil`.
    ///   - since: start, inclusive.
    ///   - until: end, exclusive.
    func digestTotals(app: String?, environment: String?, since: Date, until: Date) async throws
        -> DigestWindowTotals
}

extension DigestSource {
    /// Gathers what the digest of a period needs and builds it.
    /// - Parameters:
    ///   - period: the period; compared with ``DigestPeriod/previous``.
    ///   - app: only this app, or every app.
    ///   - environment: only this environment's failures, installs and decodes, or every environment's.
    ///   - rule: the growth rule.
    ///   - limits: caps of the lists.
    ///   - now: the time of the run, recorded in the digest.
    /// - Returns: the digest.
    public func digest(
        for period: DigestPeriod, app: String? = nil, environment: String? = nil, rule: GrowthRule = .standard,
        limits: DigestLimits = DigestLimits(),
        now: Date
    ) async throws -> Digest {
        let previous = period.previous
        let current = try await fields(
            FieldsQuery(
                app: app, environment: environment, since: period.since, until: period.until,
                limit: FieldsQuery.maxLimit))
        let before = try await fields(
            FieldsQuery(
                app: app, environment: environment, since: previous.since, until: previous.until,
                limit: FieldsQuery.maxLimit))
        var ids: [String] = []
        var seen = Set<String>()
        for field in current.fields + before.fields where seen.insert(field.group).inserted { ids.append(field.group) }
        var hourly: [String: [Int64: Int]] = [:]
        var lifecycleByGroup: [String: GroupLifecycle] = [:]
        // Pages keep each statement well under the bound-parameter limits of both databases.
        for start in stride(from: 0, to: ids.count, by: 500) {
            let page = Array(ids[start..<min(start + 500, ids.count)])
            hourly.merge(
                try await hourlyCounts(
                    groups: page, environment: environment, since: previous.since, until: period.until)
            ) { a, _ in a }
            lifecycleByGroup.merge(try await lifecycles(groups: page, environment: environment)) { a, _ in a }
        }
        let input = DigestInput(
            period: period, app: app, environment: environment, current: current.fields, previous: before.fields,
            hourly: hourly,
            lifecycles: lifecycleByGroup,
            currentTotals: try await digestTotals(
                app: app, environment: environment, since: period.since, until: period.until),
            previousTotals: try await digestTotals(
                app: app, environment: environment, since: previous.since, until: previous.until))
        var digest = DigestBuilder.build(input, rule: rule, limits: limits, generatedAt: now)
        digest.dataSince = try await firstReport(app: app, environment: environment)
        return digest
    }
}

import Foundation

/// What storage knows about a period and the one before, gathered for ``DigestBuilder``.
public struct DigestInput: Sendable {
    /// The period summarized.
    public var period: DigestPeriod
    /// The app filter, or `nil`.
    public var app: String?
    /// The environment filter, or `nil`.
    public var environment: String?
    /// The breaking-fields summary of the period (the top groups by count).
    public var current: [FieldSummary]
    /// The breaking-fields summary of the previous period (the top groups by count).
    public var previous: [FieldSummary]
    /// Failures per group and hour index over both periods, for every group of the two summaries.
    public var hourly: [String: [Int64: Int]]
    /// The stored lifecycle of every group of the two summaries.
    public var lifecycles: [String: GroupLifecycle]
    /// Totals of the period.
    public var currentTotals: DigestWindowTotals
    /// Totals of the previous period.
    public var previousTotals: DigestWindowTotals
}

/// Counts over every group in one window, all exact but installs: distinct installs with at least one failure are
/// an estimate within 2 % above 1,000 (docs/api.md#installs-and-rates). What
/// ``DigestSource/digestTotals(app:environment:since:until:)`` answers: a sum of failures, the groups and the
/// endpoints with at least one failure, and the installs.
public typealias DigestWindowTotals = (count: Int, groups: Int, installs: Int, endpoints: Int)

/// Turns a ``DigestInput`` into a ``Digest``: classification, comparison and ordering, no I/O.
public enum DigestBuilder {
    /// Builds a digest.
    ///
    /// Sections are exclusive, in this order: a regressed group is not also listed as new, and
    /// growing/fading only describe groups that are neither new nor regressed (a new group has no
    /// baseline to grow from). Counts come from the two summaries, and from the hourly series for a group
    /// absent from one of them (a summary holds at most ``FieldsQuery/maxLimit`` groups).
    /// - Parameters:
    ///   - input: what storage returned.
    ///   - rule: the growth rule.
    ///   - limits: caps of the lists.
    ///   - generatedAt: the time of the run (the caller's clock).
    /// - Returns: the digest.
    public static func build(
        _ input: DigestInput, rule: GrowthRule = .standard, limits: DigestLimits = DigestLimits(), generatedAt: Date
    ) -> Digest {
        let period = input.period
        // Whole hours for the charts; a trailing period's edge hours reach a little past it.
        let firstHour = Hour.index(of: period.since)
        let endHour = Hour.ceilingIndex(of: period.until)
        let previousFirst = Hour.index(of: period.previous.since)
        let previousCounts = Dictionary(input.previous.map { ($0.group, $0.count) }) { first, _ in first }

        func entry(from field: FieldSummary, inCurrent: Bool) -> DigestGroup {
            let hours = input.hourly[field.group] ?? [:]
            let hourly = (firstHour..<endHour).map { hours[$0] ?? 0 }
            let previousCount =
                previousCounts[field.group] ?? (previousFirst..<firstHour).lazy.map { hours[$0] ?? 0 }.saturatingSum()
            let lifecycle = input.lifecycles[field.group]
            let count = inCurrent ? field.count : hourly.saturatingSum()
            let status = lifecycle?.status(since: period.since) ?? field.status
            return DigestGroup(
                group: field.group, app: field.app, endpoint: field.endpoint, path: field.path, kind: field.kind,
                expected: field.expected, count: count, previousCount: previousCount,
                installs: inCurrent ? field.installs : 0, rate: inCurrent ? field.rate : nil,
                versions: inCurrent ? field.versions : [:], status: status,
                trend: rule.trend(current: count, previous: previousCount),
                firstSeen: lifecycle?.firstSeen ?? field.firstSeen, lastSeen: field.lastSeen,
                regressedVersion: status == .regressed ? lifecycle?.regressedVersion : nil, hourly: hourly)
        }

        let current = input.current.map { entry(from: $0, inCurrent: true) }
        let seen = Set(current.map(\.group))
        let previousOnly = input.previous.filter { !seen.contains($0.group) }.map { entry(from: $0, inCurrent: false) }
        let all = current + previousOnly

        let byCount: (DigestGroup, DigestGroup) -> Bool = { a, b in
            a.count == b.count ? a.group < b.group : a.count > b.count
        }
        let new = current.filter { $0.status == .new }.sorted(by: byCount)
        let regressed = current.filter { $0.status == .regressed }.sorted(by: byCount)
        let older = all.filter { $0.status != .new && $0.status != .regressed }
        let growing = older.filter { $0.trend == .growing }.sorted { a, b in
            let (da, db) = (a.count - a.previousCount, b.count - b.previousCount)
            return da == db ? a.group < b.group : da > db
        }
        let fading = older.filter { $0.trend == .fading }.sorted { a, b in
            let (da, db) = (a.previousCount - a.count, b.previousCount - b.count)
            return da == db ? a.group < b.group : da > db
        }

        var endpointOrder: [AppEndpoint] = []
        var endpointGroups: [AppEndpoint: [DigestGroup]] = [:]
        for group in current.sorted(by: byCount) where group.count > 0 {
            let key = AppEndpoint(app: group.app, endpoint: group.endpoint)
            if endpointGroups[key] == nil { endpointOrder.append(key) }
            endpointGroups[key, default: []].append(group)
        }
        let endpoints =
            endpointOrder.map { key -> DigestEndpoint in
                let groups = endpointGroups[key] ?? []
                return DigestEndpoint(
                    app: key.app, endpoint: key.endpoint, count: groups.lazy.map(\.count).saturatingSum(),
                    groups: groups.count, fields: Array(groups.prefix(limits.fieldsPerEndpoint)))
            }
            .sorted { a, b in
                a.count != b.count ? a.count > b.count : (a.app, a.endpoint) < (b.app, b.endpoint)
            }

        let totals = DigestTotals(
            count: input.currentTotals.count, previousCount: input.previousTotals.count,
            groups: input.currentTotals.groups, previousGroups: input.previousTotals.groups,
            installs: input.currentTotals.installs, endpoints: input.currentTotals.endpoints,
            new: new.count, regressed: regressed.count, growing: growing.count, fading: fading.count)
        return Digest(
            app: input.app, environment: input.environment, generatedAt: generatedAt, period: period, growthRule: rule,
            totals: totals,
            new: Array(new.prefix(limits.perSection)), regressed: Array(regressed.prefix(limits.perSection)),
            growing: Array(growing.prefix(limits.perSection)), fading: Array(fading.prefix(limits.perSection)),
            endpoints: Array(endpoints.prefix(limits.endpoints)))
    }

    private struct AppEndpoint: Hashable {
        var app: String
        var endpoint: String
    }
}

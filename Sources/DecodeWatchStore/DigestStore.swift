import DecodeWatchCore
import Foundation

/// What the periodic digest needs from storage beyond ``ReportStore``: hourly series, lifecycles,
/// totals, the once-per-period delivery record and auto-resolve.
///
/// A separate protocol so that ``ReportStore`` keeps its requirements; every backend that serves
/// digests conforms to both. Times are passed in by the caller (no clock inside storage), so tests
/// control them.
public protocol DigestStore: ReportStore {
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

    /// Totals over every group in a window (hourly rollups, like ``ReportStore/fields(_:)``): exact, but for
    /// installs, estimated within 2 % once a bucket of the window has more than 1,000 (docs/api.md#installs-and-rates).
    /// - Parameters:
    ///   - app: only this app, or every app.
    ///   - environment: only this environment's failures and installs, or every environment's for `nil`.
    ///   - since: start, inclusive.
    ///   - until: end, exclusive.
    func digestTotals(app: String?, environment: String?, since: Date, until: Date) async throws
        -> DigestWindowTotals

    /// Claims the right to deliver the digest of a period to a destination.
    ///
    /// Exactly one caller gets ``DigestClaim/claimed``: the row is inserted with
    /// `INSERT … ON CONFLICT DO NOTHING`, and an existing row is taken over only when it was never
    /// delivered and its claim is older than `staleAfter` (its process died) or was released.
    /// - Parameters:
    ///   - key: period and destination.
    ///   - token: a unique token for this attempt; ``markDigestDelivered(_:token:at:)`` must present it.
    ///   - now: the time of the claim.
    ///   - staleAfter: how long an undelivered claim blocks others.
    func claimDigestRun(_ key: DigestRunKey, token: String, now: Date, staleAfter: TimeInterval) async throws
        -> DigestClaim

    /// Records that a claimed digest was delivered.
    /// - Returns: `false` when the claim had been taken over meanwhile (the delivery still happened).
    func markDigestDelivered(_ key: DigestRunKey, token: String, at: Date) async throws -> Bool

    /// Gives a claim back after a failed delivery, so that the next run retries at once.
    /// - Parameter error: why it failed, kept on the record.
    func releaseDigestRun(_ key: DigestRunKey, token: String, error: String, at: Date) async throws

    /// The record of one period and destination, or `nil` when none was claimed.
    func digestRun(_ key: DigestRunKey) async throws -> DigestRunRecord?

    /// Resolves every open or regressed group not seen for `quietFor`.
    /// - Parameters:
    ///   - quietFor: the quiet time; groups whose `last_seen` is before `now − quietFor` are resolved.
    ///   - now: the time of the decision, stored as `resolved_at`.
    /// - Returns: the ids resolved.
    func autoResolve(quietFor: TimeInterval, now: Date) async throws -> [String]
}

/// Identifies one delivery: a period and where it goes (e.g. `webhook:3f2a…`).
public struct DigestRunKey: Sendable, Hashable {
    /// The period.
    public var period: DigestPeriod
    /// Where the digest goes; never a secret (hash webhook URLs first).
    public var destination: String

    /// Creates a key.
    public init(period: DigestPeriod, destination: String) {
        self.period = period
        self.destination = destination
    }
}

/// The answer to ``DigestStore/claimDigestRun(_:token:now:staleAfter:)``.
public enum DigestClaim: Sendable, Hashable {
    /// This caller delivers; `attempt` counts claims of this key, starting at 1.
    case claimed(attempt: Int)
    /// Already delivered at that time: do nothing.
    case delivered(at: Date)
    /// Another process holds a fresh claim since that time: do nothing.
    case inProgress(since: Date)
}

/// What is recorded about one period and destination.
public struct DigestRunRecord: Sendable, Hashable {
    /// The key.
    public var key: DigestRunKey
    /// When it was last claimed, unless released.
    public var claimedAt: Date?
    /// When it was delivered, or `nil`.
    public var deliveredAt: Date?
    /// How many times it was claimed.
    public var attempts: Int
    /// Why the last failed attempt failed.
    public var lastError: String?

    /// Creates a record.
    public init(key: DigestRunKey, claimedAt: Date?, deliveredAt: Date?, attempts: Int, lastError: String?) {
        self.key = key
        self.claimedAt = claimedAt
        self.deliveredAt = deliveredAt
        self.attempts = attempts
        self.lastError = lastError
    }
}

extension DigestStore {
    /// Failures per group and hour of every environment (``hourlyCounts(groups:environment:since:until:)``).
    public func hourlyCounts(groups: [String], since: Date, until: Date) async throws -> [String: [Int64: Int]] {
        try await hourlyCounts(groups: groups, environment: nil, since: since, until: until)
    }

    /// The lifecycles of a page of groups, first seen in any environment
    /// (``lifecycles(groups:environment:)``).
    public func lifecycles(groups: [String]) async throws -> [String: GroupLifecycle] {
        try await lifecycles(groups: groups, environment: nil)
    }

    /// Totals of every environment (``digestTotals(app:environment:since:until:)``).
    public func digestTotals(app: String?, since: Date, until: Date) async throws -> DigestWindowTotals {
        try await digestTotals(app: app, environment: nil, since: since, until: until)
    }

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
        return DigestBuilder.build(input, rule: rule, limits: limits, generatedAt: now)
    }
}

import DecodeWatchCore
import Foundation

/// What people decide about groups beyond resolving them: mute, resolve in the next version, and
/// the history of those decisions (the dashboard, `decodewatch mute`, `POST /v1/groups/{group}/…`).
///
/// The decisions are kept beside the rollups and applied when reading, so ingest never waits for them:
/// a mute hides a group from the new, regressed and growing lists until it ends; a resolution in the
/// next version keeps the group resolved while only versions up to the newest one seen at that time
/// report it.
public protocol GroupActionStore: Sendable {
    /// Marks a group resolved.
    /// - Parameters:
    ///   - group: the group id.
    ///   - at: the time of the decision; reports that occurred after it regress the group.
    /// - Throws: ``StoreError`` with code `notFound` when no group has that id.
    func resolve(group: String, at: Date) async throws

    /// Applies a decision to a group and records it in its history.
    /// - Parameters:
    ///   - action: what was decided.
    ///   - group: the group id.
    ///   - at: the time of the decision.
    ///   - actor: who took it (docs/api.md#group-actions): a token's name, `local:<user>` or `unauthenticated`.
    /// - Throws: ``StoreError`` with code `notFound` when no group has that id.
    func apply(_ action: GroupAction, to group: String, at: Date, by actor: String) async throws

    /// The decisions in force for a page of groups; groups without any are absent.
    /// - Parameters:
    ///   - groups: the group ids.
    ///   - now: the time mutes by period are compared with.
    func actionStates(groups: [String], now: Date) async throws -> [String: GroupActionState]

    /// The decisions in force for every group that has any, however many groups there are.
    /// - Parameter now: the time mutes by period are compared with.
    func allActionStates(now: Date) async throws -> [String: GroupActionState]

    /// The decisions taken about a group, oldest first.
    func statusHistory(group: String) async throws -> [GroupStatusEvent]

    /// The address of the issue opened for a group in the backend's tracker (docs/cli.md#issue).
    /// - Returns: `nil` when none was opened.
    func issueURL(group: String) async throws -> String?

    /// Records the issue opened for a group, once, with an `issue` entry in its history naming who opened it.
    ///
    /// A group keeps its first issue: when one is recorded already, nothing changes and its address is returned, so
    /// that two people opening one at the same moment both end up showing the same.
    /// - Parameters:
    ///   - group: the group id.
    ///   - url: the issue's address.
    ///   - at: when it was opened.
    ///   - actor: who opened it, as for ``apply(_:to:at:by:)``.
    /// - Returns: the group's issue address: `url`, or the one recorded before.
    /// - Throws: ``StoreError`` with code `notFound` when no group has that id.
    func recordIssue(group: String, url: String, at: Date, by actor: String) async throws -> String

    /// Resolves every open or regressed group not seen for `quietFor`.
    /// - Parameters:
    ///   - quietFor: the quiet time; groups whose `last_seen` is before `now − quietFor` are resolved.
    ///   - now: the time of the decision, stored as `resolved_at`.
    /// - Returns: the ids resolved.
    func autoResolve(quietFor: TimeInterval, now: Date) async throws -> [String]
}

/// One group as stored: key, lifecycle and the latest redacted sample.
public struct StoredGroup: Sendable, Hashable {
    /// The group id.
    public var id: String
    /// App id.
    public var app: String
    /// Normalized endpoint.
    public var endpoint: String
    /// Rendered JSONPath.
    public var path: String
    /// Failure kind.
    public var kind: ReportKind
    /// When it was last seen, ever.
    public var lastSeen: Date
    /// Lifecycle (first seen, resolution, regression).
    public var lifecycle: GroupLifecycle
    /// The latest report's redacted snippet and message.
    public var sample: Sample
}

/// A decision about a group.
public enum GroupAction: Sendable, Hashable {
    /// Resolved now; any later report regresses it.
    case resolve
    /// Resolved now; only a report from a version newer than every version seen so far regresses it.
    case resolveInNextVersion
    /// Muted for a period or for a number of further failures, whichever is given.
    case mute(GroupMute)
    /// The mute ended.
    case unmute

    /// The name recorded in the history and used by the API and the forms.
    public var name: String {
        switch self {
        case .resolve: return "resolve"
        case .resolveInNextVersion: return "resolve-in-next-version"
        case .mute: return "mute"
        case .unmute: return "unmute"
        }
    }
}

/// How long a mute lasts.
public enum GroupMute: Sendable, Hashable {
    /// For this many seconds.
    case period(TimeInterval)
    /// Until the group fails this many more times.
    case occurrences(Int)

    /// A sentence fragment for the history: "for 24h", "for 7d", "until 100 more failures".
    public var summary: String {
        switch self {
        case .period(let seconds):
            // Whole days from two days on ("for 7d"); hours below, so a day reads "for 24h".
            return seconds >= 172_800 && seconds.truncatingRemainder(dividingBy: 86_400) == 0
                ? "for \(Int(seconds / 86_400))d" : "for \(Int((seconds / 3600).rounded(.up)))h"
        case .occurrences(let count): return "until \(count) more failures"
        }
    }
}

/// The decisions in force for one group.
public struct GroupActionState: Sendable, Hashable {
    /// When the mute ends by time, when muted for a period.
    public var mutedUntil: Date?
    /// Failures left before the mute ends, when muted for a number of failures.
    public var mutedFailuresLeft: Int?
    /// Whether a mute is in force now.
    public var isMuted: Bool
    /// The newest version seen when the group was resolved in the next version; `nil` when it was not,
    /// or no version was known (then any version regresses it).
    public var resolvedThroughVersion: String?
    /// Whether a version newer than ``resolvedThroughVersion`` reported the group since that resolution.
    public var newerVersionSeen: Bool
    /// Whether the group was resolved in the next version (and not resolved plainly since).
    public var isResolvedInNextVersion: Bool

    /// Creates a state.
    public init(
        mutedUntil: Date? = nil, mutedFailuresLeft: Int? = nil, isMuted: Bool = false,
        resolvedThroughVersion: String? = nil, newerVersionSeen: Bool = false, isResolvedInNextVersion: Bool = false
    ) {
        self.mutedUntil = mutedUntil
        self.mutedFailuresLeft = mutedFailuresLeft
        self.isMuted = isMuted
        self.resolvedThroughVersion = resolvedThroughVersion
        self.newerVersionSeen = newerVersionSeen
        self.isResolvedInNextVersion = isResolvedInNextVersion
    }

    /// The status shown for a group: a regression by a version that was already out when the group was
    /// resolved in the next version does not count, so the group stays resolved.
    public func status(_ status: GroupStatus) -> GroupStatus {
        status == .regressed && isResolvedInNextVersion && !newerVersionSeen ? .resolved : status
    }

    /// The status a group is listed under: ``status(_:)``, and `muted` while a mute is in force, unless the group
    /// is resolved (a mute keeps a failing group out of the open lists; a resolved one is not open).
    public func listedStatus(_ status: GroupStatus) -> GroupStatus {
        let decided = self.status(status)
        return isMuted && decided != .resolved ? .muted : decided
    }

    /// When the mute in force ends, for a group listed as `muted`.
    public var mute: FieldMute? {
        isMuted ? FieldMute(until: mutedUntil, failuresLeft: mutedFailuresLeft) : nil
    }

    /// Whether version `a` is newer than `b`, comparing numbers as numbers (`5.10.0` > `5.9.1`).
    public static func isNewer(_ a: String, than b: String) -> Bool {
        a.compare(b, options: [.numeric]) == .orderedDescending
    }
}

/// One decision in a group's history.
public struct GroupStatusEvent: Sendable, Hashable, Codable {
    /// When it was taken.
    public var at: Date
    /// ``GroupAction/name``.
    public var action: String
    /// What it said beyond its name, e.g. "for 24h" or "through 5.2.0".
    public var detail: String?
    /// Who took it; `nil` for decisions recorded before actors were kept.
    public var actor: String?
}

extension GroupStatusEvent {
    /// The ``action`` of the entry that records the issue opened for a group
    /// (``GroupActionStore/recordIssue(group:url:at:by:)``); its ``detail`` is the issue's address.
    public static let issueAction = "issue"
}

/// The failures of a group from one app version in a window.
public struct VersionFailures: Sendable, Hashable {
    /// The app version (empty when reports carried none).
    public var version: String
    /// Failures in the window.
    public var count: Int
    /// The minute of this version's first report in the window, or the start of its hour when that hour is older
    /// than the minutes storage keeps (7 days).
    public var firstSeen: Date
    /// The minute of this version's last report in the window, likewise.
    public var lastSeen: Date
    /// Whether both times are minutes rather than hours.
    public var exactToTheMinute: Bool
}

/// A group's failures in one environment (``GroupActionStore/environmentBreakdown(group:since:until:)``).
public struct EnvironmentFailures: Sendable, Hashable {
    /// The environment's name.
    public var environment: String
    /// Failures in the window.
    public var count: Int
    /// The group's first report in this environment, ever.
    public var firstSeen: Date
    /// The group's last report in this environment, ever.
    public var lastSeen: Date
}

extension GroupActionStore where Self: FieldReads {
    /// The digest of a period without muted groups in its new, regressed and growing lists, so that a mute
    /// silences the digest as it silences the dashboard; totals still count every failure.
    /// - Parameters:
    ///   - period: the period.
    ///   - app: only this app, or every app.
    ///   - environment: only this environment, or every environment.
    ///   - rule: the growth rule.
    ///   - now: the time of the run; mutes are evaluated at it.
    public func digestWithoutMuted(
        for period: DigestPeriod, app: String? = nil, environment: String? = nil, rule: GrowthRule = .standard,
        now: Date
    ) async throws -> Digest {
        var digest = try await digest(for: period, app: app, environment: environment, rule: rule, now: now)
        let listed = Set((digest.new + digest.regressed + digest.growing).map(\.group))
        guard !listed.isEmpty else { return digest }
        let muted = Set(try await actionStates(groups: listed.sorted(), now: now).filter(\.value.isMuted).keys)
        guard !muted.isEmpty else { return digest }
        // The totals count whole lists, which the digest may have cut; only the removed entries come off.
        func drop(_ list: inout [DigestGroup]) -> Int {
            let before = list.count
            list.removeAll { muted.contains($0.group) }
            return before - list.count
        }
        digest.totals.new -= drop(&digest.new)
        digest.totals.regressed -= drop(&digest.regressed)
        digest.totals.growing -= drop(&digest.growing)
        return digest
    }
}

extension GroupActionStore where Self: FieldReads {
    /// The breaking-fields summary with the decisions in force applied to each `status` (``GroupActionState/
    /// listedStatus(_:)``), only the groups of `query.status` when it names one, and the decisions read.
    ///
    /// A group resolved in the next version and since reported only by versions that were already out
    /// stays `resolved`; a muted group is `muted`, with when its mute ends.
    /// - Parameters:
    ///   - query: filters and window.
    ///   - now: the time mutes are evaluated at.
    public func decidedFields(_ query: FieldsQuery, now: Date) async throws -> (
        summary: FieldsSummary, actions: [String: GroupActionState]
    ) {
        var summary: FieldsSummary
        let actions: [String: GroupActionState]
        if let status = query.status {
            // The status is known only with the decisions: every group of the window is listed lightly, and the
            // first `limit` of that status summarized.
            actions = try await allActionStates(now: now)
            var index = query
            index.limit = FieldIndexEntry.listLimit
            summary = try await fieldsPage(index, version: query.version) { entries in
                entries.filter { (actions[$0.group]?.listedStatus($0.status) ?? $0.status) == status }
                    .prefix(query.limit).map(\.group)
            }.page
        } else {
            summary = try await fields(query)
            actions = try await actionStates(groups: summary.fields.map(\.group), now: now)
        }
        for index in summary.fields.indices {
            if let state = actions[summary.fields[index].group] {
                summary.fields[index].status = state.listedStatus(summary.fields[index].status)
                summary.fields[index].mute = summary.fields[index].status == .muted ? state.mute : nil
            }
        }
        return (summary, actions)
    }
}

extension GroupMute {
    /// The mute the API, the forms and `decodewatch mute` ask for: a period or a number of failures.
    /// - Parameters:
    ///   - period: a duration such as `90m`, `24h`, `7d`, `2w`.
    ///   - count: a whole number of further failures, 1 or more.
    /// - Throws: ``QueryError`` when neither or both are given, or one is malformed.
    public static func parse(period: String?, count: String?) throws(QueryError) -> GroupMute {
        switch (period, count) {
        case (let period?, nil):
            guard let seconds = TimeReference.duration(period), seconds > 0 else {
                throw QueryError("for '\(period)' is not a duration such as 90m, 24h, 7d or 2w.")
            }
            return .period(seconds)
        case (nil, let count?):
            guard let value = Int(count), value >= 1 else {
                throw QueryError("count '\(count)' must be a whole number of failures, 1 or more.")
            }
            return .occurrences(value)
        default:
            throw QueryError("Mute for a period (for=24h) or for a number of failures (count=100), one of the two.")
        }
    }
}

/// One group failing in a window, with what choosing a page needs: the sort keys and the status.
public struct FieldIndexEntry: Sendable, Hashable {
    /// Most groups a list considers: past it, the least failing groups of the window are left out.
    public static let listLimit = 20_000

    /// The group id.
    public var group: String
    /// Failures in the window.
    public var count: Int
    /// `count` ÷ decodes of the endpoint in the window, or `nil` without decodes.
    public var rate: Double?
    /// When it was last seen, ever.
    public var lastSeen: Date
    /// The status relative to the window, before decisions (``GroupActionState/status(_:)``) apply.
    public var status: GroupStatus

    /// Creates an entry.
    public init(group: String, count: Int, rate: Double?, lastSeen: Date, status: GroupStatus) {
        self.group = group
        self.count = count
        self.rate = rate
        self.lastSeen = lastSeen
        self.status = status
    }
}

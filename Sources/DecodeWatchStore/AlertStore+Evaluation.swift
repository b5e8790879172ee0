import DecodeWatchCore
import Foundation

/// The groups that fire one rule in one evaluation, before they are claimed.
public struct PendingAlert: Sendable, Hashable {
    /// The rule.
    public var rule: AlertRule
    /// Start of the rule's window.
    public var since: Date
    /// End of the window: the evaluation's time.
    public var until: Date
    /// The groups that fire it, most failures first.
    public var groups: [AlertCandidate]

    /// Creates a pending alert.
    public init(rule: AlertRule, since: Date, until: Date, groups: [AlertCandidate]) {
        self.rule = rule
        self.since = since
        self.until = until
        self.groups = groups
    }
}

extension AlertStore where Self: FieldReads {
    /// Matches rules against the groups failing in their windows.
    ///
    /// Reads every distinct window in one pass (``alertCandidates(windows:environment:until:now:)``), one pass per
    /// environment that rules watch (and one for the rules of every environment), and matches in memory
    /// (``AlertMatcher``), so the cost grows with neither rules nor windows but with failing groups.
    /// - Parameters:
    ///   - rules: the rules.
    ///   - now: the end of every window.
    /// - Returns: one entry per rule that some group fires, in the order of `rules`.
    public func pendingAlerts(for rules: [AlertRule], now: Date) async throws -> [PendingAlert] {
        var candidates: [String?: [TimeInterval: [AlertCandidate]]] = [:]
        for (environment, watching) in Dictionary(grouping: rules, by: \.environment) {
            candidates[environment] = try await alertCandidates(
                windows: Set(watching.map(\.window)).sorted(), environment: environment, until: now, now: now)
        }
        return rules.compactMap { rule in
            let groups = AlertMatcher.matches(rule, in: candidates[rule.environment]?[rule.window] ?? [])
            guard !groups.isEmpty else { return nil }
            return PendingAlert(rule: rule, since: now.addingTimeInterval(-rule.window), until: now, groups: groups)
        }
    }

    /// Claims a pending alert's groups and builds the alert from those this caller won.
    /// - Parameters:
    ///   - pending: what fired.
    ///   - token: the claim token, to release the claims when delivery fails.
    ///   - cooldown: how long a group stays quiet for a rule after alerting (within one episode).
    ///   - publicURL: where the dashboard is reachable, for links to group pages.
    /// - Returns: the alert, or `nil` when another evaluation (another replica, or an earlier run within the
    ///   cooldown) already alerted about every group.
    public func claimAlert(
        _ pending: PendingAlert, token: String, cooldown: TimeInterval, publicURL: URL?
    ) async throws -> Alert? {
        let claimed = try await claimAlerts(
            rule: pending.rule.id, groups: pending.groups, token: token, now: pending.until, cooldown: cooldown)
        guard !claimed.isEmpty else { return nil }
        let listed = Array(claimed.prefix(Alert.listed))
        let summaries = try await fields(
            ofGroups: listed, environment: pending.rule.environment, since: pending.since, until: pending.until)
        let byGroup = Dictionary(summaries.map { ($0.group, $0) }) { a, _ in a }
        let statuses = Dictionary(pending.groups.map { ($0.group, $0.status) }) { a, _ in a }
        let fields = listed.compactMap { id -> AlertField? in
            guard var summary = byGroup[id] else { return nil }
            // The status the rule matched, with decisions applied, rather than the bare lifecycle's.
            summary.status = statuses[id] ?? summary.status
            return AlertField(summary: summary, url: AlertField.page(of: id, under: publicURL))
        }
        return Alert(
            rule: pending.rule, firedAt: pending.until, since: pending.since, until: pending.until, fields: fields,
            total: claimed.count)
    }
}

import DecodeWatchCore
import Foundation

/// What alerting needs from storage: the rules, the light rows an evaluation matches them against, the
/// full numbers of the few groups an alert lists, and the claims that make each alert go out once.
///
/// Claims are per rule and group: ``claimAlerts(rule:groups:token:now:cooldown:)`` inserts or renews a row
/// with `INSERT … ON CONFLICT DO UPDATE … WHERE`, which exactly one writer wins, so with several replicas on
/// one database exactly one of them sends each alert, and a group alerts once per rule until it is resolved
/// (a new episode) or the cooldown passes.
public protocol AlertStore: Sendable {
    /// Stores a rule.
    /// - Throws: ``StoreError`` `conflict` when a rule with the same name exists.
    func addAlertRule(_ rule: AlertRule) async throws

    /// Every rule, oldest first.
    func alertRules() async throws -> [AlertRule]

    /// Removes a rule and its claims.
    /// - Throws: ``StoreError`` `notFound` when no rule has that id.
    func removeAlertRule(id: String) async throws

    /// Whether any client reported decode counts for an app, endpoint and environment (or any, for `nil`), ever
    /// kept: rate rules need them.
    func hasDecodeCounts(app: String?, endpoint: String?, environment: String?) async throws -> Bool

    /// Every group with failures in each window `[until − window, until)`, most failures first, with count,
    /// rate and lifecycle; without samples, versions or installs, which are read for the listed few only.
    /// All windows are read in one pass over the rollups.
    /// - Parameters:
    ///   - windows: the windows' lengths.
    ///   - environment: count only this environment's failures and decodes, or every environment's for `nil`.
    ///   - now: the time decisions (mutes) are evaluated at.
    /// - Returns: the candidates of each window, by its length.
    func alertCandidates(windows: [TimeInterval], environment: String?, until: Date, now: Date) async throws
        -> [TimeInterval: [AlertCandidate]]

    /// Claims the right to alert about groups for a rule.
    ///
    /// A group is claimed when it has no claim for the rule, when its claim is from an earlier episode (the
    /// group was resolved since: its ``AlertCandidate/resolvedAt`` differs), or when its claim is older than
    /// `cooldown`. Rows are written in group order, so concurrent claimers never deadlock.
    /// - Parameters:
    ///   - rule: the rule id.
    ///   - groups: the groups that fire the rule.
    ///   - token: a unique token for this attempt; ``releaseAlerts(rule:token:)`` must present it.
    ///   - now: the time of the claim.
    ///   - cooldown: how long a claim stops the same group and episode from alerting again.
    /// - Returns: the ids this caller claimed, in the order of `groups`.
    func claimAlerts(rule: String, groups: [AlertCandidate], token: String, now: Date, cooldown: TimeInterval)
        async throws -> [String]

    /// Gives the claims of a failed delivery back, so that the next evaluation alerts again.
    func releaseAlerts(rule: String, token: String) async throws
}

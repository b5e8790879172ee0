import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Logging

/// One alert evaluation and the delivery of what it claimed, shared by the scheduler inside `serve`.
///
/// An evaluation reads the rollups (one query per distinct window), matches every rule in memory and
/// claims the groups that fire; only the claimant of a group alerts about it, so with several replicas on
/// one PostgreSQL exactly one sends. A rule whose groups fire sends one alert per evaluation, listing the
/// top ``Alert/listed`` groups and counting all. A delivery that fails on every attempt releases its
/// claims, so the next evaluation tries again.
struct AlertEvaluator: Sendable {
    /// The store.
    let store: any AlertStore & FieldReads
    /// How long a group stays quiet for a rule after alerting, unless it is resolved and comes back.
    var cooldown: TimeInterval = defaultCooldown
    /// The cooldown unless told otherwise (`serve --alert-cooldown`).
    static let defaultCooldown: TimeInterval = 3600
    /// Where the dashboard is reachable, for links to group pages.
    var publicURL: URL?
    /// Delivery attempts per alert, the first included.
    var attempts = 4
    /// The wait after the first failed attempt; doubled after each.
    var initialDelay: TimeInterval = 2
    /// Time allowed for one attempt.
    var timeout: TimeInterval = 10
    /// Where evaluations and deliveries are counted.
    var metrics: AlertMetrics?
    /// The logger.
    let logger: Logger

    /// An alert this process claimed and must deliver.
    struct Claimed: Sendable {
        /// The alert.
        var alert: Alert
        /// The claim token, to release the claims when delivery fails.
        var token: String
    }

    /// Evaluates every rule at `now` and claims what fires.
    /// - Returns: the alerts to deliver, at most one per rule.
    func evaluate(now: Date) async throws -> [Claimed] {
        let started = ContinuousClock.now
        do {
            let rules = try await store.alertRules()
            guard !rules.isEmpty else { return [] }
            var claimed: [Claimed] = []
            for pending in try await store.pendingAlerts(for: rules, now: now) {
                let token = UUID().uuidString
                if let alert = try await store.claimAlert(
                    pending, token: token, cooldown: cooldown, publicURL: publicURL)
                {
                    claimed.append(Claimed(alert: alert, token: token))
                }
            }
            metrics?.evaluations[.ok].increment()
            metrics?.evaluationDuration.record(duration: ContinuousClock.now - started)
            return claimed
        } catch {
            metrics?.evaluations[.failed].increment()
            throw error
        }
    }

    /// Posts an alert to its rule's webhook, retrying with backoff for a bounded time.
    /// - Returns: whether the webhook accepted it.
    @discardableResult
    func deliver(_ claimed: Claimed) async -> Bool {
        let alert = claimed.alert
        let sender = WebhookSender(
            url: alert.rule.webhook, attempts: attempts, initialDelay: initialDelay, timeout: timeout)
        let metadata: Logger.Metadata = [
            "alert.rule": "\(alert.rule.id)", "alert.rule_name": "\(alert.rule.name)",
            "alert.groups": "\(alert.total)", "alert.group": "\(alert.fields.first?.summary.group ?? "")",
            "webhook.url": "\(sender.redactedURL)",
        ]
        do {
            let attempts = try await sender.send(AlertRenderer.body(alert), what: "the alert") { attempt, problem in
                metrics?.retries.increment()
                logger.warning(
                    "Alert delivery attempt failed; retrying",
                    metadata: metadata.merging(["webhook.attempt": "\(attempt)", "error": "\(problem)"]) { a, _ in a })
            }
            metrics?.deliveries[.delivered].increment()
            logger.notice(
                "Alert delivered", metadata: metadata.merging(["webhook.attempts": "\(attempts)"]) { a, _ in a })
            return true
        } catch {
            metrics?.deliveries[.failed].increment()
            logger.error("Alert delivery failed", metadata: metadata.merging(["error": "\(error)"]) { a, _ in a })
            do { try await store.releaseAlerts(rule: alert.rule.id, token: claimed.token) } catch {
                logger.error("Cannot release the claims of an undelivered alert", metadata: ["error": "\(error)"])
            }
            return false
        }
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Logging

/// One digest run: build the digest of a period, write it, and deliver it to a webhook at most
/// once per period (shared by `decodewatch digest` and the scheduler inside `serve`).
///
/// Exactly-once: before posting, the run claims `(period, destination)` in the `digest_runs` table;
/// only the claimant posts, then marks it delivered. A failed post releases the claim, so the next
/// run retries; a claim left by a crashed process blocks others for ``claimTimeout`` only.
struct DigestJob: Sendable {
    /// The period summarized.
    var period: DigestPeriod
    /// Only this app, or every app.
    var app: String?
    /// Only this environment, or every environment.
    var environment: String?
    /// The format written to ``outputPath`` (the webhook always gets Slack text).
    var format: DigestFormat = .markdown
    /// A file to write the digest to.
    var outputPath: String?
    /// The webhook posted to.
    var webhook: WebhookSender?
    /// The growth rule.
    var rule: GrowthRule = .standard
    /// Resolve groups quiet for this long before building the digest.
    var autoResolveAfter: TimeInterval?
    /// How long an undelivered claim stops other runs from delivering.
    var claimTimeout: TimeInterval = 900

    /// What a run did.
    struct Result: Sendable {
        var digest: DecodeWatchCore.Digest
        var rendered: String
        var delivery: Delivery?
        var resolved: [String]
    }

    /// What happened to the webhook delivery.
    enum Delivery: Sendable, Equatable {
        case delivered(attempts: Int)
        case alreadyDelivered(at: Date)
        case inProgress(since: Date)
    }

    /// Runs once.
    /// - Parameters:
    ///   - store: the store.
    ///   - now: the time of the run (claims and records use it).
    ///   - logger: where the run is logged.
    /// - Returns: the digest, its rendering and the delivery outcome.
    /// - Throws: ``DigestDeliveryError`` when the webhook failed (the claim is released); storage errors.
    func run(store: any CollectorStore, now: Date, logger: Logger) async throws -> Result {
        var resolved: [String] = []
        if let quiet = autoResolveAfter {
            resolved = try await store.autoResolve(quietFor: quiet, now: now)
            if !resolved.isEmpty {
                logger.info("Auto-resolved quiet groups", metadata: ["group.count": "\(resolved.count)"])
            }
        }
        var digest = try await store.digestWithoutMuted(
            for: period, app: app, environment: environment, rule: rule, now: now)
        let judged = try await store.judgedFields(
            FieldsQuery(
                app: app, environment: environment, since: period.since, until: period.until,
                limit: FieldsQuery.maxLimit), now: now)
        digest.drift = DigestDrift(DriftReport(summary: judged))
        let rendered = format.render(digest)
        if let outputPath {
            do {
                try Data(rendered.utf8).write(to: URL(fileURLWithPath: outputPath), options: .atomic)
            } catch {
                throw DigestDeliveryError("Cannot write the digest to \(outputPath): \(error.localizedDescription).")
            }
        }
        var delivery: Delivery?
        if let webhook {
            delivery = try await deliver(digest, via: webhook, store: store, now: now, logger: logger)
        }
        return Result(digest: digest, rendered: rendered, delivery: delivery, resolved: resolved)
    }

    private func deliver(
        _ digest: DecodeWatchCore.Digest, via webhook: WebhookSender, store: any DigestStore, now: Date, logger: Logger
    ) async throws -> Delivery {
        let key = DigestRunKey(period: period, webhook: webhook.url, app: app, environment: environment)
        let token = UUID().uuidString
        let metadata: Logger.Metadata = [
            "digest.since": "\(RFC3339.string(from: period.since))",
            "digest.until": "\(RFC3339.string(from: period.until))",
        ]
        switch try await store.claimDigestRun(key, token: token, now: now, staleAfter: claimTimeout) {
        case .delivered(let at):
            logger.info("Digest already delivered for this period", metadata: metadata)
            return .alreadyDelivered(at: at)
        case .inProgress(let since):
            logger.info("Another run is delivering the digest for this period", metadata: metadata)
            return .inProgress(since: since)
        case .claimed:
            break
        }
        let attempts: Int
        do {
            attempts = try await webhook.send(text: DigestMarkdownRenderer.render(digest, style: .slack))
        } catch {
            try? await store.releaseDigestRun(key, token: token, error: "\(error)", at: now)
            logger.error("Digest delivery failed", metadata: metadata.merging(["error": "\(error)"]) { a, _ in a })
            throw error
        }
        _ = try await store.markDigestDelivered(key, token: token, at: now)
        logger.info("Digest delivered", metadata: metadata.merging(["webhook.attempts": "\(attempts)"]) { a, _ in a })
        return .delivered(attempts: attempts)
    }
}

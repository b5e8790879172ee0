import DecodeWatchCore
import Foundation

/// The once-per-period delivery record of the digest; what a digest is built from is read through ``FieldReads``
/// (``DigestSource``).
///
/// Times are passed in by the caller (no clock inside storage), so tests control them.
public protocol DigestStore: Sendable {
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

}

/// Identifies one delivery: a period and where it goes (e.g. `webhook:3f2a…`).
public struct DigestRunKey: Sendable, Hashable {
    /// The period.
    public var period: DigestPeriod
    /// Where the digest goes; never a secret (hash webhook URLs first).
    public var destination: String
}

extension DigestRunKey {
    /// The key of a digest sent to a webhook. The URL is hashed because webhook URLs are secrets. The app and the
    /// environment are part of it, so that the digests of two apps or two environments sent to one webhook for one
    /// period are each delivered once; a digest of every environment keeps the key it had before environments
    /// existed.
    /// - Parameters:
    ///   - period: the period.
    ///   - webhook: the webhook's URL.
    ///   - app: the app the digest is restricted to, or `nil` for every app.
    ///   - environment: the environment the digest is restricted to, or `nil` for every environment.
    public init(period: DigestPeriod, webhook: URL, app: String?, environment: String? = nil) {
        var hash = FNV1a()
        hash.combine(webhook.absoluteString)
        let id = String(hash.value, radix: 16)
        self.init(
            period: period,
            destination: "webhook:" + String(repeating: "0", count: 16 - id.count) + id
                + (app.map { ";app=\($0)" } ?? "") + (environment.map { ";environment=\($0)" } ?? ""))
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
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Logging
import ServiceLifecycle

/// Runs the digest inside `decodewatch serve`, once per period, as a `Service` of the ServiceGroup.
///
/// Periods are aligned on multiples of ``every`` since 1970 UTC (`24h` → midnight to midnight UTC),
/// so every replica computes the same period and the `digest_runs` claim lets one of them deliver.
/// At start the scheduler catches up on the last finished period (a restart does not lose a
/// digest; an already delivered one is skipped); a failed delivery is retried after ``retryInterval``.
struct DigestScheduler: Service {
    /// The store.
    let store: any CollectorStore
    /// The period length and interval.
    let every: TimeInterval
    /// What each run does; its `period` is replaced by the scheduled one.
    let template: DigestJob
    /// Wait after a period ends before sending it, so batches uploaded late still count.
    var settle: TimeInterval = 300
    /// Wait before retrying a failed delivery.
    var retryInterval: TimeInterval = 600
    /// The clock; tests pass their own.
    var clock: @Sendable () -> Date = { Date() }
    /// The logger.
    let logger: Logger

    /// The last finished period at `now`.
    static func period(at now: Date, every: TimeInterval) -> DigestPeriod {
        let end = (now.timeIntervalSince1970 / every).rounded(.down) * every
        return DigestPeriod(since: Date(timeIntervalSince1970: end - every), until: Date(timeIntervalSince1970: end))
    }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let wait = await tick(now: clock())
                try await Task.sleep(nanoseconds: UInt64(max(1, wait) * 1_000_000_000))
            }
        }
    }

    /// Runs the digest of the last finished period (delivered at most once) and says how long to wait.
    /// - Parameter now: the time of the tick.
    /// - Returns: seconds until the next tick.
    func tick(now: Date) async -> TimeInterval {
        var job = template
        job.period = Self.period(at: now, every: every)
        let nextRun = job.period.until.addingTimeInterval(every + settle).timeIntervalSince(now)
        do {
            _ = try await job.run(store: store, now: now, logger: logger)
            return nextRun
        } catch {
            logger.error("Scheduled digest failed", metadata: ["error": "\(error)"])
            return min(retryInterval, nextRun)
        }
    }
}

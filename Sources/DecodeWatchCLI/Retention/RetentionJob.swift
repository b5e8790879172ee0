import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Logging
import ServiceLifecycle

/// Deletes data past the retention horizon inside `decodewatch serve`, as a `Service` of the ServiceGroup.
///
/// Every ``every`` (and once at start) it calls the store's
/// ``RetentionStore/deleteExpired(before:minutesBefore:limit:)`` until nothing expired is left: each call
/// is one short transaction of at most ``batchSize`` rows of each kind, with a pause between calls, so
/// ingest is never held up behind one long delete. Replicas may all run it: deleting is idempotent. A
/// failed sweep is logged and retried at the next one.
struct RetentionJob: Service {
    /// The store.
    let store: any RetentionStore
    /// How long data is kept, or `nil` to keep it forever; per-minute counts go after ``Minute/kept`` either way.
    let retention: TimeInterval?
    /// Time between sweeps.
    var every: TimeInterval = 3600
    /// The most rows of each kind one transaction deletes.
    var batchSize = 2000
    /// The pause between two transactions of a sweep.
    var pause: Duration = .milliseconds(20)
    /// The clock; tests pass their own.
    var clock: @Sendable () -> Date = { Date() }
    /// The logger.
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                _ = await sweep(now: clock())
                try await Task.sleep(for: .seconds(every))
            }
        }
    }

    /// Deletes everything older than `now` minus ``retention``, one short transaction at a time.
    /// - Parameter now: the time the horizon counts back from.
    /// - Returns: the rows deleted (what was deleted before a failure included).
    func sweep(now: Date) async -> Int {
        let horizon = retention.map { now.addingTimeInterval(-$0) } ?? .distantPast
        let minutesHorizon = now.addingTimeInterval(-Minute.kept)
        var total = 0
        do {
            while !Task.isCancelled {
                let deleted = try await store.deleteExpired(
                    before: horizon, minutesBefore: minutesHorizon, limit: batchSize)
                total += deleted
                guard deleted > 0 else { break }
                try await Task.sleep(for: pause)
            }
            if total > 0 {
                logger.info(
                    "Deleted data past the retention horizon",
                    metadata: ["retention.horizon": "\(horizon)", "retention.rows": "\(total)"])
            }
        } catch is CancellationError {
        } catch {
            logger.warning(
                "Retention sweep stopped; it continues at the next one",
                metadata: ["error": "\(error)", "retention.rows": "\(total)"])
        }
        return total
    }
}

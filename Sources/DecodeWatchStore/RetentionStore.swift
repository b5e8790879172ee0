import Foundation

/// Deletes what is older than the retention horizon, a little at a time.
///
/// Each call is one short transaction that removes a bounded number of per-minute and hourly rollup cells'
/// install rows, then those of the cells left without any (with their versions and expected values), then
/// expired decode counts and batch ids, then groups last seen before the horizon (a group that an ingest commit
/// reports again meanwhile stays), then the deleted groups' mutes and history. It first waits for the batches
/// acknowledged before it to be folded, so that none of them comes back after the sweep. Callers repeat it until it
/// returns zero, so ingest never waits behind one long delete. Several processes may run it at once: deleting
/// is idempotent.
public protocol RetentionStore: Sendable {
    /// Deletes up to `limit` expired rows of each kind, in one transaction.
    /// - Parameters:
    ///   - horizon: data that occurred (or batches received) before this time goes.
    ///   - minutesBefore: per-minute counts before this time go (they only serve recent windows' edges).
    ///   - limit: the most rows of each kind one call deletes.
    /// - Returns: how many rows were deleted; `0` when nothing before the horizon is left.
    /// - Throws: ``StoreError`` with code `unavailable` when storage cannot commit; nothing was deleted then.
    func deleteExpired(before horizon: Date, minutesBefore: Date, limit: Int) async throws -> Int
}

import DecodeWatchCore
import Foundation

/// Where a collector keeps the batches it acknowledged and has not folded into the rollups yet, each as received.
///
/// Appending is the commit a 202 waits for: small, and never queued behind the large transactions that fold many
/// batches at once (``BatchFolder``). Each store has its own: a second SQLite file next to the database
/// (`SQLiteBatchLog`), or a table that every PostgreSQL replica appends to. A batch leaves the log in the same
/// commit that counts it, or after it: a batch folded twice is found in `batches` and counted once.
package protocol BatchLog: Sendable {
    /// Most batches one fold takes (``BatchFolder``), and one claim of ``foldOrphans(pipeline:atStart:)``.
    var batchesPerFold: Int { get }

    /// Appends, in one commit, the batches that are neither in the log nor stored.
    /// - Parameter batches: batches with their bodies, one delivery of each.
    /// - Returns: for each batch, its place in the log, or `nil` when it was logged or stored before.
    func append(_ batches: [ReceivedBatch]) async throws -> [Int64?]

    /// Folds logged batches into the rollups and removes them from the log.
    /// - Returns: `false` when the store is gone, and the batches stay in the log.
    /// - Throws: ``StoreError`` when the fold did not commit; the batches stay in the log.
    func fold(_ batches: [LoggedBatch]) async throws -> Bool

    /// Removes batches from the log without folding them: those that can never be folded.
    func drop(_ seqs: [Int64]) async throws

    /// Folds, in chunks, the batches that no running collector will fold: those a stopped one left.
    /// - Parameters:
    ///   - pipeline: decodes a batch from its body again (``IngestPipeline/rebuild(_:receivedAt:)``).
    ///   - atStart: whether this collector is starting: a replica restarted after a crash then folds what it left
    ///     at once, and so folds every batch no other replica is folding, however recent.
    /// - Returns: how many batches were folded or dropped as no longer decodable.
    func foldOrphans(pipeline: IngestPipeline, atStart: Bool) async throws -> Int

    /// The place of the newest batch in the log, or `nil` when it is empty.
    func newest() async throws -> Int64?

    /// Whether a batch at or before `seq` is still in the log.
    func holds(upTo seq: Int64) async throws -> Bool

    /// Commits a one-row write, as an append would: `/readyz` proves that acknowledging can commit.
    func commitReadinessWrite() async throws
}

/// A batch in the log: its place and the batch, folded (its body stays in the log).
package struct LoggedBatch: Sendable {
    package let seq: Int64
    package let batch: BatchAggregate

    package init(seq: Int64, batch: BatchAggregate) {
        self.seq = seq
        self.batch = batch
    }
}

import DecodeWatchCore
import Foundation

extension SQLStore {
    /// Stores batches in one transaction, as ``ReportStore/ingest(_:)-([BatchAggregate])`` says.
    package func write(_ batches: [BatchAggregate]) async throws -> [IngestOutcome] {
        guard !batches.isEmpty else { return [] }
        let write = prepareWrite(batches)
        let written = try await perform(access: .write) { try write.run(in: $0) }
        didCommit(written)
        return written.outcomes
    }

    /// Remembers what a committed ``BatchWrite`` wrote, for the commits after it.
    package func didCommit(_ written: WrittenBatches) {
        for (rollup, rows) in written.installs { committedInstalls.remember(rows, in: rollup, now: written.at) }
    }

    /// The writes that store batches, folded before the write transaction that runs them (possibly after other
    /// statements of the same transaction); ``didCommit(_:)`` must see their result once the transaction has
    /// committed.
    package func prepareWrite(_ batches: [BatchAggregate]) -> BatchWrite {
        BatchWrite(batches, dialect: dialect, leavingOut: committedInstalls)
    }
}

/// The statements that store batches (``SQLStore/prepareWrite(_:)``).
package struct BatchWrite: Sendable {
    private let batches: [BatchAggregate]
    /// Each batch's index among ``batches``, the first of its deliveries in this commit.
    private let first: [BatchIdentity: Int]
    /// The first delivery of each batch.
    private let distinct: [BatchAggregate]
    /// The writes of every distinct batch; `nil` when there are none.
    private let prepared: IngestStatements?
    private let dialect: SQLDialect
    private let committed: CommittedInstalls
    private let now: Date

    fileprivate init(_ batches: [BatchAggregate], dialect: SQLDialect, leavingOut committed: CommittedInstalls) {
        // Two deliveries of one batch in one commit: the first is stored, the others are duplicates.
        let first = Dictionary(batches.enumerated().map { (BatchIdentity($1), $0) }) { earlier, _ in earlier }
        distinct = batches.indices.filter { first[BatchIdentity(batches[$0])] == $0 }.map { batches[$0] }
        self.batches = batches
        self.first = first
        self.dialect = dialect
        // Folding is most of a commit's CPU: done before the write transaction, so the writer (one at a time on
        // SQLite, row locks on PostgreSQL) is held only for the statements. Folded again inside only when some
        // batches turn out to be stored already.
        prepared = batches.isEmpty ? nil : IngestStatements(distinct, dialect: dialect)
        (self.committed, now) = (committed, Date())
    }

    /// Records the batches, then writes the groups, their follow-ups and the rollups of those not stored before.
    /// - Returns: each batch's outcome and the install rows written.
    package func run(in tx: any SQLTransaction) throws -> WrittenBatches {
        guard !batches.isEmpty else { return WrittenBatches(outcomes: [], installs: [:], at: now) }
        let inserted = Set(
            try tx.run(IngestStatements.record(distinct, dialect: dialect)).joined().map {
                BatchIdentity(app: try $0.text("app_id"), batch: try $0.text("batch_id"))
            })
        let outcomes = batches.enumerated().map { index, batch in
            first[BatchIdentity(batch)] == index && inserted.contains(BatchIdentity(batch))
                ? IngestOutcome.stored : .duplicate
        }
        let stored = distinct.filter { inserted.contains(BatchIdentity($0)) }
        guard !stored.isEmpty else { return WrittenBatches(outcomes: outcomes, installs: [:], at: now) }
        let statements =
            if stored.count == distinct.count, let prepared { prepared } else {
                IngestStatements(stored, dialect: dialect)
            }
        let upserted = Array(try tx.run(statements.groups).joined())
        // The upsert only touches a row of the same key; a different key under the same id would be
        // a SHA-256 collision, refused rather than counted into another group (or another app).
        let seqOfID = Dictionary(try upserted.map { (try $0.text("group_id"), try $0.integer("group_seq")) }) {
            first, _ in first
        }
        let seqs = try statements.groupIDs.map { id in
            guard let seq = seqOfID[id] else { throw StoreError.groupConflict(id) }
            return seq
        }
        let totalOfID = Dictionary(try upserted.map { (try $0.text("group_id"), try $0.integer("sample_total")) }) {
            first, _ in first
        }
        _ = try tx.run(
            try statements.regressions(upserted) + statements.environments(seqs: seqs)
                + statements.history(seqs: seqs, totals: statements.groupIDs.map { totalOfID[$0] ?? 1 }))
        let written = try statements.rollups(seqs: seqs, leavingOut: committed, now: now, in: tx)
        return WrittenBatches(outcomes: outcomes, installs: written, at: now)
    }
}

/// What a ``BatchWrite`` did: each batch's outcome and the install rows it wrote.
package struct WrittenBatches: Sendable {
    package let outcomes: [IngestOutcome]
    let installs: [Rollup: [InstallRow]]
    /// When the rows were written.
    let at: Date
}

/// A batch's identity for idempotency: its app and its client-chosen id, compared byte for byte as the `batches`
/// table's key is: a batch id only canonically equivalent to another is another batch.
package struct BatchIdentity: Hashable {
    package var app: String
    package var batch: String

    package static func == (left: BatchIdentity, right: BatchIdentity) -> Bool {
        ExactText(left.batch) == ExactText(right.batch) && ExactText(left.app) == ExactText(right.app)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(ExactText(app))
        hasher.combine(ExactText(batch))
    }

    package init(app: String, batch: String) {
        self.app = app
        self.batch = batch
    }

    package init(_ batch: BatchAggregate) {
        self.init(app: batch.appID, batch: batch.batchID)
    }
}

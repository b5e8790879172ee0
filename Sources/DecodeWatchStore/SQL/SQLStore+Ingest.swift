import DecodeWatchCore
import Foundation

extension SQLStore {
    /// Stores batches in one transaction, as ``ReportStore/ingest(_:)-([BatchAggregate])`` says.
    package func write(_ batches: [BatchAggregate]) async throws -> [IngestOutcome] {
        guard !batches.isEmpty else { return [] }
        let written = try await perform(try writeStep(batches), access: .write)
        didCommit(written)
        return written.outcomes
    }

    /// Remembers what a committed ``writeStep(_:)`` wrote, for the commits after it.
    package func didCommit(_ written: WrittenBatches) {
        for (rollup, rows) in written.installs { committedInstalls.remember(rows, in: rollup, now: written.at) }
    }

    /// The statements that store batches, to run in a write transaction (possibly after other statements of the
    /// same transaction); ``didCommit(_:)`` must see the result once the transaction has committed.
    package func writeStep(_ batches: [BatchAggregate]) throws -> SQLStep<WrittenBatches> {
        guard !batches.isEmpty else { return .done(WrittenBatches(outcomes: [], installs: [:], at: Date())) }
        // Two deliveries of one batch in one commit: the first is stored, the others are duplicates.
        let first = Dictionary(batches.enumerated().map { (BatchIdentity($1), $0) }) { earlier, _ in earlier }
        let distinct = batches.indices.filter { first[BatchIdentity(batches[$0])] == $0 }.map { batches[$0] }
        let dialect = self.dialect
        // Folding is most of a commit's CPU: done before the write transaction, so the writer (one at a time on
        // SQLite, row locks on PostgreSQL) is held only for the statements. Folded again inside only when some
        // batches turn out to be stored already.
        let prepared = IngestStatements(distinct, dialect: dialect)
        let (committed, now) = (committedInstalls, Date())
        return try SQLStep<WrittenBatches>.runAll(IngestStatements.record(distinct, dialect: dialect)) {
            results in
            let inserted = Set(
                try results.joined().map { BatchIdentity(app: try $0.text("app_id"), batch: try $0.text("batch_id")) })
            let outcomes = batches.enumerated().map { index, batch in
                first[BatchIdentity(batch)] == index && inserted.contains(BatchIdentity(batch))
                    ? IngestOutcome.stored : .duplicate
            }
            let stored = distinct.filter { inserted.contains(BatchIdentity($0)) }
            guard !stored.isEmpty else { return .done(WrittenBatches(outcomes: outcomes, installs: [:], at: now)) }
            let statements = stored.count == distinct.count ? prepared : IngestStatements(stored, dialect: dialect)
            return try .runAll(statements.groups) { results in
                // The upsert only touches a row of the same key; a different key under the same id would be
                // a SHA-256 collision, refused rather than counted into another group (or another app).
                let seqOfID = Dictionary(
                    try results.joined().map { (try $0.text("group_id"), try $0.integer("group_seq")) }
                ) { first, _ in first }
                let seqs = try statements.groupIDs.map { id in
                    guard let seq = seqOfID[id] else { throw StoreError.groupConflict(id) }
                    return seq
                }
                let totalOfID = Dictionary(
                    try results.joined().map { (try $0.text("group_id"), try $0.integer("sample_total")) }
                ) { first, _ in first }
                let followUps =
                    try statements.regressions(Array(results.joined())) + statements.environments(seqs: seqs)
                    + statements.history(seqs: seqs, totals: statements.groupIDs.map { totalOfID[$0] ?? 1 })
                return try .runAll(followUps) { _ in
                    try statements.rollups(seqs: seqs, leavingOut: committed, now: now).then { written in
                        .done(WrittenBatches(outcomes: outcomes, installs: written, at: now))
                    }
                }
            }
        }
    }
}

/// What ``SQLStore/writeStep(_:)`` did: each batch's outcome and the install rows it wrote.
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

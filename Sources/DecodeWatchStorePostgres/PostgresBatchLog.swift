import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Logging

/// The PostgreSQL store's ``BatchLog``: the `ingest_log` table every replica appends to, one statement per group
/// commit.
///
/// A replica folds the batches it logged in one transaction that first marks them folded
/// (`UPDATE … WHERE NOT folded RETURNING`) and then writes the rollups of those it marked: a batch another replica
/// folded meanwhile is not returned, and is not counted again. What a replica logged and never folded (it stopped)
/// is claimed by another after ``orphanAge`` (by itself when it restarts) with `FOR UPDATE SKIP LOCKED`, decoded
/// again and folded the same way, so two replicas never fold one batch, and none waits for another's fold. Each
/// batch names the replica that logged it (``ReplicaPresence``), and a batch whose replica still runs is left to
/// it however long it waits: under load a running replica's batches wait longer than ``orphanAge``, and another
/// claiming them would decode them a second time, the costliest step, just when the replicas are busiest. An append
/// that fails may have committed all the same, so it renews the replica's key (``ReplicaPresence/renew()``), and
/// what it logged is claimed like a stopped replica's.
///
/// Folded rows are deleted after ``orphanAge``, not in the fold: an append that reads `batches` before the fold
/// commits then still conflicts with the batch's row, and answers it as a duplicate.
final class PostgresBatchLog: BatchLog {
    /// How long a batch stays in the log before any replica folds it as one a stopped replica left: its own
    /// replica folds it within milliseconds, or within seconds while PostgreSQL is slow.
    static let orphanAge = Duration.seconds(2)

    /// Every fold writes the rows of the same groups and cells, so replicas' folds take turns on their row locks,
    /// and the batches of one fold share most of its rows: a larger fold writes each shared row once for more batches,
    /// with one replica as with three (BENCHMARKS.md, 2026-12-02).
    let batchesPerFold = 1000

    private weak let store: PostgresReportStore?
    private let logger: Logger

    init(store: PostgresReportStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Appends, in one statement, each batch that is neither logged nor in `batches`, after their groups are checked
    /// for id collisions (``SQLStore/checkGroups(of:)``).
    func append(_ batches: [ReceivedBatch]) async throws -> [Int64?] {
        guard let store else { throw StoreError(.unavailable, "The PostgreSQL store of this log was closed.") }
        try await store.checkGroups(of: batches.map(\.aggregate))
        let owner = await store.presence.keep()
        var builder = SQLBuilder(.postgres)
        builder.append("INSERT INTO ingest_log (app_id, batch_id, received_at, encoding, body, owner)\n")
        builder.append(
            "SELECT v.app_id, v.batch_id, v.received_at, v.encoding, v.body, \(bind: .integer(owner))::BIGINT\n")
        builder.append("FROM (VALUES ")
        for (index, batch) in batches.enumerated() {
            let (aggregate, source) = (batch.aggregate, batch.source)
            builder.append(
                """
                \(index == 0 ? "" : ", ")(\(bind: .text(aggregate.appID)), \(bind: .text(aggregate.batchID)), \
                \(bind: SQLValue(aggregate.receivedAt))::BIGINT, \(bind: .text(source.encoding.rawValue)), \
                \(bind: .blob(source.body))::BYTEA)
                """)
        }
        builder.append(
            """
            ) AS v (app_id, batch_id, received_at, encoding, body)
            WHERE NOT EXISTS (SELECT 1 FROM batches b WHERE b.app_id = v.app_id AND b.batch_id = v.batch_id)
            ON CONFLICT (app_id, batch_id) DO NOTHING
            RETURNING seq, app_id, batch_id
            """)
        let statement = builder.statement()
        let logged: [(BatchIdentity, Int64)]
        do {
            logged = try await store.performAlone(statement, access: .write) { records in
                try records.map {
                    (BatchIdentity(app: try $0.text("app_id"), batch: try $0.text("batch_id")), try $0.integer("seq"))
                }
            }
        } catch {
            // It may have committed all the same; this replica would not fold what it does not hold.
            await store.presence.renew()
            throw error
        }
        var seqs = Dictionary(logged) { first, _ in first }
        // A batch sent twice in one group commit is logged once: the first delivery gets its place.
        return batches.map { seqs.removeValue(forKey: BatchIdentity($0.aggregate)) }
    }

    /// Marks the batches folded and writes the rollups of those it marked, in one transaction.
    func fold(_ batches: [LoggedBatch]) async throws -> Bool {
        guard let store, !batches.isEmpty else { return store != nil }
        let prepared = store.prepareWrite(batches.map(\.batch))
        let mark = Self.markFolded(batches.map(\.seq))
        let written = try await store.perform(access: .write) { tx in
            let claimed = Set(try tx.run(mark).map { try $0.integer("seq") })
            guard claimed.count < batches.count else { return try prepared.run(in: tx) }
            return try store.prepareWrite(batches.filter { claimed.contains($0.seq) }.map(\.batch)).run(in: tx)
        }
        store.didCommit(written)
        return true
    }

    func drop(_ seqs: [Int64]) async throws {
        guard let store, !seqs.isEmpty else { return }
        let delete = SQLDialect.postgres.statement(
            "DELETE FROM ingest_log WHERE seq IN (\(bind: seqs.map(SQLValue.integer)))")
        _ = try await store.performAlone(delete, access: .write) { $0.count }
    }

    /// Claims, ``batchesPerFold`` at a time, the batches logged more than ``orphanAge`` ago (at start, all) under
    /// a key no replica holds (it stopped, or renewed its key), that no replica is folding, and folds each chunk in
    /// the transaction that claimed it.
    func foldOrphans(pipeline: IngestPipeline, atStart: Bool) async throws -> Int {
        guard let store else { return 0 }
        await store.presence.keep()
        let limit = batchesPerFold
        let age = atStart ? 0 : Self.orphanAge.components.seconds * 1000
        let claim = SQLDialect.postgres.statement(
            """
            SELECT seq, app_id, batch_id, received_at, encoding, body FROM ingest_log
            WHERE NOT folded AND logged_at < (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT - \(bind: .integer(age))
                AND (owner IS NULL OR owner NOT IN (\(Self.runningReplicas)))
            ORDER BY seq LIMIT \(bind: .integer(Int64(limit))) FOR UPDATE SKIP LOCKED
            """)
        let logger = logger
        // Folded batches, once no delivery of theirs can still be in flight from before their fold.
        let cleanup = SQLDialect.postgres.statement(
            """
            DELETE FROM ingest_log
            WHERE folded AND logged_at < (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT
                - \(bind: .integer(Self.orphanAge.components.seconds * 1000))
            """)
        _ = try await store.performAlone(cleanup, access: .write) { $0.count }
        var total = 0
        while true {
            let (written, count) = try await store.perform(access: .write) { tx -> (WrittenBatches?, Int) in
                let rows = try tx.run(claim)
                guard !rows.isEmpty else { return (nil, 0) }
                var folded: [BatchAggregate] = []
                for row in rows {
                    let source = BatchSource(
                        body: try row.blob("body"),
                        encoding: BatchSource.Encoding(rawValue: try row.text("encoding")) ?? .identity)
                    do {
                        folded.append(try pipeline.rebuild(source, receivedAt: try row.date("received_at")))
                    } catch {
                        logger.error(
                            "An acknowledged batch no longer decodes and is dropped",
                            metadata: [
                                "app.id": "\((try? row.text("app_id")) ?? "")",
                                "batch.id": "\((try? row.text("batch_id")) ?? "")",
                                "error": "\(error)",
                            ])
                    }
                }
                _ = try tx.run(Self.markFolded(try rows.map { try $0.integer("seq") }))
                return (try store.prepareWrite(folded).run(in: tx), rows.count)
            }
            if let written { store.didCommit(written) }
            total += count
            guard count == limit else { return total }
        }
    }

    func newest() async throws -> Int64? {
        guard let store else { return nil }
        let statement = SQLStatement("SELECT max(seq) AS seq FROM ingest_log")
        return try await store.performAlone(statement, access: .lookup) { try $0.first?.optionalInteger("seq") }
    }

    func holds(upTo seq: Int64) async throws -> Bool {
        guard let store else { return false }
        let statement = SQLDialect.postgres.statement(
            "SELECT seq FROM ingest_log WHERE seq <= \(bind: .integer(seq)) AND NOT folded LIMIT 1")
        return try await store.performAlone(statement, access: .lookup) { !$0.isEmpty }
    }

    /// The log is in the database: acknowledging can commit when the database can.
    func commitReadinessWrite() async throws {
        try await store?.commitReadinessWrite()
    }

    /// The owners (``ReplicaPresence/owner``) whose advisory lock a session of this database holds.
    private static let runningReplicas = """
        SELECT (l.classid::BIGINT << 32) | l.objid::BIGINT FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
            AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        """

    private static func markFolded(_ seqs: [Int64]) -> SQLStatement {
        SQLDialect.postgres.statement(
            """
            UPDATE ingest_log SET folded = true WHERE seq IN (\(bind: seqs.map(SQLValue.integer))) AND NOT folded
            RETURNING seq
            """)
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import GRDB
import Synchronization

/// The SQLite store's ``BatchLog``: a second SQLite file next to the database (`<database>-pending`), holding
/// each acknowledged batch's body as received until it is folded.
///
/// Its own file gives appends a writer of their own, so acknowledgments never queue behind the transactions that
/// fold many batches into the rollups. A fold commits to the database first and removes the batches from the log
/// after; a batch folded again after a crash between the two is found in `batches` and counts nothing twice. The
/// file holds the bodies as sent, before the collector redacts anything, only until they are folded (milliseconds
/// under load); `secure_delete` overwrites them when they are removed.
final class SQLiteBatchLog: BatchLog {
    /// The log's one writer; ``SQLiteCheckpointer`` checkpoints its write-ahead log in the background.
    let queue: DatabaseQueue
    /// The store whose rollups the batches are folded into; the log does not keep it open.
    private weak let store: SQLiteReportStore?
    /// The newest batch of the log when it was opened, and whether those up to it were folded: a collector that
    /// stopped left them, since one process at a time serves a database file.
    private let orphans: Mutex<(upTo: Int64, folded: Bool)>
    /// One collector writes the database, and a fold of 200 realistic batches takes it a few milliseconds: folds
    /// keep up with acknowledgments at any size, and larger ones stored no more per second (BENCHMARKS.md,
    /// 2026-12-02).
    let batchesPerFold = 200

    /// The log's file for a database file.
    static func path(for database: String) -> String { database + "-pending" }

    /// Opens (creating if needed) the log of a database file. A new log is readable and writable by its owner
    /// only, whatever the process's umask, since it holds snippets before redaction; SQLite gives its `-wal` and
    /// `-shm` files the same mode.
    /// - Parameter busyTimeout: how long a write waits for another process's lock on the log.
    /// - Parameter store: the store the batches are folded into, or `nil` for a log only read (another process's).
    init(database: String, busyTimeout: TimeInterval, store: SQLiteReportStore? = nil) throws {
        self.store = store
        let path = Self.path(for: database)
        if !FileManager.default.fileExists(atPath: path) {
            // An empty file is an empty SQLite database. When it cannot be made, opening it below fails and says why.
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS pending (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        app_id TEXT NOT NULL,
                        batch_id TEXT NOT NULL,
                        received_at INTEGER NOT NULL,
                        encoding TEXT NOT NULL,
                        body BLOB NOT NULL,
                        UNIQUE (app_id, batch_id)
                    )
                    """)
            try db.execute(
                sql: "CREATE TABLE IF NOT EXISTS readiness_checks (id INTEGER PRIMARY KEY, checked_at INTEGER NOT NULL)"
            )
        }
        let newest = try queue.read { db in try Int64.fetchOne(db, sql: "SELECT max(seq) FROM pending") }
        orphans = Mutex((newest ?? 0, newest == nil))
    }

    /// Commits a one-row write, as an append would: `/readyz` proves that acknowledging can commit.
    func commitReadinessWrite() async throws {
        try await Self.committing { try await self.writeReadinessCheck() }
    }

    /// Runs a write of the log, its SQLite errors said as a ``StoreError``.
    private static func committing<T>(_ write: () async throws -> T) async throws -> T {
        do {
            return try await write()
        } catch let error as DatabaseError {
            throw StoreError(
                .unavailable,
                "The SQLite log of acknowledged batches cannot commit: \(SQLiteReportStore.describe(error)).")
        }
    }

    private func writeReadinessCheck() async throws {
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO readiness_checks (id, checked_at) VALUES (1, ?)
                    ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at
                    """,
                arguments: [Date().milliseconds])
        }
    }

    /// Appends the batches that are neither in the log nor stored, in one transaction, after their groups are
    /// checked for id collisions (``SQLStore/checkGroups(of:)``). Which are stored is read inside the log's
    /// transaction, so a batch folded and removed from the log meanwhile is found there.
    func append(_ batches: [ReceivedBatch]) async throws -> [Int64?] {
        guard let store else { throw StoreError(.unavailable, "The SQLite store of this log was closed.") }
        try await store.checkGroups(of: batches.map(\.aggregate))
        let pool = store.pool
        return try await Self.committing {
            try await self.append(batches) { identities in try pool.read { try Self.stored(identities, in: $0) } }
        }
    }

    private func append(
        _ batches: [ReceivedBatch], check: @escaping @Sendable ([BatchIdentity]) throws -> Set<BatchIdentity>
    ) async throws -> [Int64?] {
        let rows = batches.map { batch in
            (
                identity: BatchIdentity(batch.aggregate), receivedAt: batch.aggregate.receivedAt.milliseconds,
                source: batch.source
            )
        }
        return try await queue.write { db in
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO pending (app_id, batch_id, received_at, encoding, body) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (app_id, batch_id) DO NOTHING RETURNING seq
                    """)
            var seqs = try rows.map { row -> Int64? in
                try Int64.fetchOne(
                    insert,
                    arguments: [
                        row.identity.app, row.identity.batch, row.receivedAt, row.source.encoding.rawValue,
                        row.source.body,
                    ])
            }
            let appended = rows.indices.filter { seqs[$0] != nil }.map { rows[$0].identity }
            let before = try check(appended)
            guard !before.isEmpty else { return seqs }
            for index in rows.indices where seqs[index] != nil && before.contains(rows[index].identity) {
                try db.execute(sql: "DELETE FROM pending WHERE seq = ?", arguments: [seqs[index]])
                seqs[index] = nil
            }
            return seqs
        }
    }

    /// Folds batches into the database, then removes them from the log.
    func fold(_ batches: [LoggedBatch]) async throws -> Bool {
        guard let store else { return false }
        _ = try await store.write(batches.map(\.batch))
        try await drop(batches.map(\.seq))
        return true
    }

    /// Removes batches, folded or not.
    func drop(_ seqs: [Int64]) async throws {
        try await queue.write { db in
            for chunk in stride(from: 0, to: seqs.count, by: 500).map({ seqs[$0..<min($0 + 500, seqs.count)] }) {
                try db.execute(
                    sql: "DELETE FROM pending WHERE seq IN (\(chunk.map { _ in "?" }.joined(separator: ", ")))",
                    arguments: StatementArguments(Array(chunk)))
            }
        }
    }

    /// Folds the batches the log held when it was opened, oldest first, ``batchesPerFold`` at a
    /// time; later calls find nothing to do.
    func foldOrphans(pipeline: IngestPipeline, atStart: Bool) async throws -> Int {
        let (upTo, done) = orphans.withLock { $0 }
        guard !done, let store else { return 0 }
        var total = 0
        var after: Int64 = 0
        while true {
            let entries = try await queue.read { [after] db in
                try Row.fetchAll(
                    db, sql: "SELECT * FROM pending WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
                    arguments: [after, upTo, batchesPerFold]
                ).map(Entry.init)
            }
            guard let last = entries.last else { break }
            after = last.seq
            var folded: [LoggedBatch] = []
            var unreadable: [Int64] = []
            for entry in entries {
                do {
                    folded.append(
                        LoggedBatch(
                            seq: entry.seq, batch: try pipeline.rebuild(entry.source, receivedAt: entry.receivedAt)))
                } catch {
                    store.logger.error(
                        "An acknowledged batch no longer decodes and is dropped",
                        metadata: ["app.id": "\(entry.app)", "batch.id": "\(entry.batch)", "error": "\(error)"])
                    unreadable.append(entry.seq)
                }
            }
            _ = try await fold(folded)
            try await drop(unreadable)
            total += entries.count
        }
        orphans.withLock { $0.folded = true }
        return total
    }

    /// The place of the newest batch in the log, or `nil` when it is empty.
    func newest() async throws -> Int64? {
        try await queue.read { db in try Int64.fetchOne(db, sql: "SELECT max(seq) FROM pending") }
    }

    /// Whether a batch at or before `seq` is still in the log.
    func holds(upTo seq: Int64) async throws -> Bool {
        try await queue.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM pending WHERE seq <= ?)", arguments: [seq])
                ?? false
        }
    }

    /// Which of the batches the database has stored: one primary-key lookup each.
    private static func stored(_ identities: [BatchIdentity], in db: Database) throws -> Set<BatchIdentity> {
        let lookup = try db.cachedStatement(sql: "SELECT 1 FROM batches WHERE app_id = ? AND batch_id = ?")
        return Set(try identities.filter { try Bool.fetchOne(lookup, arguments: [$0.app, $0.batch]) ?? false })
    }

    /// One batch as the log holds it.
    private struct Entry: Sendable {
        let seq: Int64
        let app: String
        let batch: String
        let receivedAt: Date
        let source: BatchSource

        init(_ row: Row) {
            seq = row["seq"]
            app = row["app_id"]
            batch = row["batch_id"]
            receivedAt = Date(milliseconds: row["received_at"])
            source = BatchSource(
                body: row["body"], encoding: BatchSource.Encoding(rawValue: row["encoding"]) ?? .identity)
        }
    }
}

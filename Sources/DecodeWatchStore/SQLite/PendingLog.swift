import DecodeWatchCore
import Foundation
import GRDB

/// The batches a collector acknowledged but has not yet folded into the rollups: a second SQLite file next to
/// the database (`<database>-pending`), holding each batch's body as received.
///
/// Appending a batch here is the commit a 202 waits for: one small transaction with a writer of its own, so
/// acknowledgments never queue behind the large transactions that fold many batches into the rollups
/// (``DeferredApplier``). After a crash the bodies are decoded again and folded. The file holds the bodies as
/// sent, before the collector redacts anything, only until they are folded (milliseconds under load);
/// `secure_delete` overwrites them when they are removed.
final class PendingLog: Sendable {
    /// One acknowledged batch.
    struct Entry: Sendable {
        /// Its place in the log: later batches have larger numbers.
        let seq: Int64
        /// Its app and batch id.
        let identity: BatchIdentity
        let receivedAt: Date
        let source: BatchSource
    }

    private let queue: DatabaseQueue

    /// The log's file for a database file.
    static func path(for database: String) -> String { database + "-pending" }

    /// Opens (creating if needed) the log of a database file. A new log is readable and writable by its owner
    /// only, whatever the process's umask, since it holds snippets before redaction; SQLite gives its `-wal` and
    /// `-shm` files the same mode.
    /// - Parameter busyTimeout: how long a write waits for another process's lock on the log.
    init(database: String, busyTimeout: TimeInterval) throws {
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
    }

    /// Commits a one-row write, as an append would: `/readyz` proves that acknowledging can commit.
    func commitReadinessWrite() async throws {
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO readiness_checks (id, checked_at) VALUES (1, ?)
                    ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at
                    """,
                arguments: [Date().milliseconds])
        }
    }

    /// Appends the batches that are neither in the log nor stored, in one transaction.
    /// - Parameters:
    ///   - batches: batches with their ``BatchAggregate/source``.
    ///   - check: checks the appended batches against the database, inside the log's transaction (so a batch
    ///     folded and removed from the log meanwhile is found there): returns those it has stored, or throws to
    ///     refuse them all (a group id collision), which appends nothing.
    /// - Returns: for each batch, its place in the log, or `nil` when it is a duplicate.
    func append(
        _ batches: [BatchAggregate], check: @escaping @Sendable ([BatchIdentity]) throws -> Set<BatchIdentity>
    ) async throws -> [Int64?] {
        let rows = batches.map { batch in
            (
                identity: BatchIdentity(batch), receivedAt: batch.receivedAt.milliseconds,
                source: batch.source ?? BatchSource(body: Data(), encoding: .identity)
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

    /// Removes folded batches.
    func remove(_ seqs: [Int64]) async throws {
        try await queue.write { db in
            for chunk in stride(from: 0, to: seqs.count, by: 500).map({ seqs[$0..<min($0 + 500, seqs.count)] }) {
                try db.execute(
                    sql: "DELETE FROM pending WHERE seq IN (\(chunk.map { _ in "?" }.joined(separator: ", ")))",
                    arguments: StatementArguments(Array(chunk)))
            }
        }
    }

    /// Every batch in the log, oldest first.
    func entries() async throws -> [Entry] {
        try await queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM pending ORDER BY seq").map { row in
                Entry(
                    seq: row["seq"], identity: BatchIdentity(app: row["app_id"], batch: row["batch_id"]),
                    receivedAt: Date(milliseconds: row["received_at"]),
                    source: BatchSource(
                        body: row["body"], encoding: BatchSource.Encoding(rawValue: row["encoding"]) ?? .identity))
            }
        }
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
}

import DecodeWatchCore
import Foundation
import GRDB
import Logging

/// The embedded default store: one SQLite file in WAL mode (SPEC §5).
///
/// Each batch is one write transaction of upserts into hourly rollups; readers never block it.
/// `synchronous = FULL` makes a commit durable before `ingest` returns, so a 202 means stored.
public final class SQLiteReportStore: ReportStore {
    let pool: DatabasePool
    private let logger: Logger

    /// Opens (creating if needed) and migrates a database file.
    /// - Parameters:
    ///   - path: the SQLite file; its folder must exist.
    ///   - busyTimeout: how long a write waits for another process's lock before failing as unavailable.
    ///   - logger: where storage events are logged.
    /// - Throws: ``StoreError`` with code `unavailable` when the file cannot be opened or migrated.
    public init(path: String, busyTimeout: TimeInterval = 10, logger: Logger = Logger(label: "decodewatch.store"))
        throws
    {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        self.logger = logger
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try SQLiteMigrations.migrator.migrate(pool)
        } catch {
            throw StoreError(.unavailable, "Cannot open the SQLite database at \(path): \(Self.describe(error)).")
        }
    }

    public func ingest(_ batch: BatchAggregate) async throws -> IngestOutcome {
        try await write { db in try Self.ingest(batch, into: db) }
    }

    public func resolve(group: String, at date: Date) async throws {
        let changed = try await write { db in
            try db.execute(
                sql: "UPDATE groups SET state = 'resolved', resolved_at = ? WHERE group_id = ?",
                arguments: [date.milliseconds, group])
            return db.changesCount
        }
        guard changed > 0 else {
            throw StoreError(.notFound, "No group has the id '\(group)'; list groups with `decodewatch fields`.")
        }
    }

    public func checkReadiness() async throws {
        _ = try await read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    func write<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do {
            return try await pool.write(body)
        } catch let error as DatabaseError {
            logger.error("SQLite write failed", metadata: ["error": "\(error)"])
            throw StoreError(.unavailable, "The SQLite database cannot commit: \(Self.describe(error)).")
        }
    }

    func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(body)
        } catch let error as DatabaseError {
            throw StoreError(.unavailable, "The SQLite database cannot be read: \(Self.describe(error)).")
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}

extension Date {
    /// Milliseconds since 1970, the time unit of both databases.
    var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }
}

import DecodeWatchCore
import Foundation
import GRDB
import Logging

/// The embedded default store: one SQLite file in WAL mode (SPEC §5).
///
/// Each batch is one write transaction of upserts into hourly rollups; readers never block it.
/// `synchronous = FULL` makes a commit durable before `ingest` returns, so a 202 means stored.
/// What it stores and how it answers is shared with PostgreSQL (``SQLStore``); this type only opens
/// the file, migrates it and runs statements.
public final class SQLiteReportStore: SQLStore {
    let pool: DatabasePool
    private let logger: Logger

    package var dialect: SQLDialect { .sqlite }
    package let decodedContracts = DecodedContracts()

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

    package func perform<Result: Sendable>(_ step: SQLStep<Result>, access: SQLAccess) async throws -> Result {
        @Sendable func run(_ db: Database) throws -> Result {
            var step = step
            while true {
                switch step {
                case .done(let result): return result
                case .run(let statement, let then): step = try then(try Self.records(statement, in: db))
                }
            }
        }
        do {
            switch access {
            case .read: return try await pool.read(run)
            case .write: return try await pool.write(run)
            }
        } catch let error as DatabaseError {
            if access == .write { logger.error("SQLite write failed", metadata: ["error": "\(error)"]) }
            let doing = access == .write ? "cannot commit" : "cannot be read"
            throw StoreError(.unavailable, "The SQLite database \(doing): \(Self.describe(error)).")
        }
    }

    /// Runs one statement and reads its rows into backend-neutral records.
    private static func records(_ statement: SQLStatement, in db: Database) throws -> [SQLRecord] {
        let prepared = try db.makeStatement(sql: statement.sql)
        prepared.arguments = StatementArguments(statement.arguments.map(\.databaseValue))
        let columns = Dictionary(uniqueKeysWithValues: prepared.columnNames.enumerated().map { ($1, $0) })
        // A cursor steps the statement; each column is read straight from SQLite, with no row copy or
        // generic conversion in between.
        let rows = try Row.fetchCursor(prepared)
        let sqlite = prepared.sqliteStatement
        let count = CInt(prepared.columnCount)
        var records: [SQLRecord] = []
        while try rows.next() != nil {
            records.append(
                SQLRecord(
                    columns: columns,
                    values: try (0..<count).map { index in
                        switch DatabaseValue(sqliteStatement: sqlite, index: index).storage {
                        case .null: return .null
                        case .int64(let integer): return .integer(integer)
                        case .string(let text): return .text(text)
                        case .blob(let data): return .blob(data)
                        case .double: throw StoreError.unexpectedValue(prepared.columnNames[Int(index)])
                        }
                    }))
        }
        return records
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}

extension SQLValue {
    fileprivate var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let integer): return integer.databaseValue
        case .text(let text): return text.databaseValue
        case .blob(let data): return data.databaseValue
        }
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import GRDB
import GRDBSQLite
import Logging
import Synchronization

/// The embedded default store: one SQLite file in WAL mode (docs/ARCHITECTURE.md#storage).
///
/// Each group commit is one write transaction of upserts into the rollups; readers never block it.
/// `synchronous = FULL` makes a commit durable before `ingest` returns, so a 202 means stored. A collector
/// acknowledges batches earlier, once they are in a log of their own (``SQLStore/loggedSink(pipeline:metrics:)``).
/// What it stores and how it answers is shared with PostgreSQL (``SQLStore``); this type only opens
/// the file, migrates it and runs statements.
public final class SQLiteReportStore: SQLStore {
    let pool: DatabasePool
    let path: String
    let busyTimeout: TimeInterval
    let logger: Logger
    package let logState: BatchLogState
    /// The log this store appends acknowledged batches to, once opened (``openBatchLog()``).
    private let openedLog = Mutex<SQLiteBatchLog?>(nil)

    package var dialect: SQLDialect { .sqlite }
    /// One per core, up to 4: SQLite runs each statement on one thread, and readers never wait for each other.
    package var readSlices: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4) }
    package let decodedContracts = DecodedContracts()
    package let committedInstalls = CommittedInstalls()

    /// How much of the database file each reader maps into memory rather than copying page by page.
    ///
    /// A read transaction that follows a commit starts with an empty page cache, so a summary read every
    /// page it needs through a `read` call into SQLite's 2 MiB cache; mapped, it reads them where the
    /// operating system's cache holds them, without a copy per page (BENCHMARKS.md, the `fields` query
    /// measurements). The writer keeps its own cache warm across commits and maps nothing.
    static let readerMapSize = 1 << 30

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
            if db.configuration.readonly { try db.execute(sql: "PRAGMA mmap_size = \(Self.readerMapSize)") }
        }
        self.logger = logger
        logState = BatchLogState(logger: logger)
        self.path = path
        self.busyTimeout = busyTimeout
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try SQLiteMigrations.migrator.migrate(pool)
        } catch {
            throw StoreError(.unavailable, "Cannot open the SQLite database at \(path): \(Self.describe(error)).")
        }
    }

    /// Runs `body` synchronously inside GRDB's transaction closure, on the writer or a reader.
    package func perform<Result: Sendable>(
        access: SQLAccess, _ body: @escaping @Sendable (any SQLTransaction) throws -> Result
    ) async throws -> Result {
        if access == .read { try await settle() }
        @Sendable func run(_ db: Database) throws -> Result { try body(SQLiteTransaction(db: db)) }
        do {
            switch access {
            case .read, .lookup: return try await pool.read(run)
            case .write: return try await pool.write(run)
            }
        } catch let error as DatabaseError {
            if access == .write { logger.error("SQLite write failed", metadata: ["error": "\(error)"]) }
            let doing = access == .write ? "cannot commit" : "cannot be read"
            throw StoreError(.unavailable, "The SQLite database \(doing): \(Self.describe(error)).")
        }
    }

    /// The log of acknowledged batches, a second file next to the database (``SQLiteBatchLog``).
    package func openBatchLog() throws -> any BatchLog {
        do {
            let log = try SQLiteBatchLog(database: path, busyTimeout: busyTimeout, store: self)
            openedLog.withLock { $0 = log }
            return log
        } catch {
            throw StoreError(.unavailable, "Cannot open the log of acknowledged batches: \(Self.describe(error)).")
        }
    }

    /// The log this store appends acknowledged batches to, once it acknowledges from one.
    var appendingLog: SQLiteBatchLog? { openedLog.withLock { $0 } }

    /// The log of acknowledged batches when a collector made one; a read does not create it.
    package func existingBatchLog() throws -> (any BatchLog)? {
        guard FileManager.default.fileExists(atPath: SQLiteBatchLog.path(for: path)) else { return nil }
        return try? SQLiteBatchLog(database: path, busyTimeout: busyTimeout)
    }

    /// Runs one statement and reads its rows into backend-neutral records.
    ///
    /// GRDB prepares (and for ``SQLStatement/isReused`` keeps) the statement; binding and stepping go straight
    /// through SQLite's C interface, which cost a tenth of ingest's CPU through `StatementArguments` and a
    /// row cursor, and each column is read straight from SQLite.
    fileprivate static func records(_ statement: SQLStatement, in db: Database) throws -> [SQLRecord] {
        let prepared =
            statement.isReused ? try db.cachedStatement(sql: statement.sql) : try db.makeStatement(sql: statement.sql)
        let sqlite = prepared.sqliteStatement
        func failure(_ code: CInt) -> DatabaseError {
            DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
        }
        guard sqlite3_bind_parameter_count(sqlite) == CInt(statement.arguments.count) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments", sql: statement.sql)
        }
        sqlite3_reset(sqlite)
        defer {
            sqlite3_reset(sqlite)
            sqlite3_clear_bindings(sqlite)
        }
        for (index, value) in zip(CInt(1)..., statement.arguments) {
            let code = bind(value, to: sqlite, at: index)
            guard code == SQLITE_OK else { throw failure(code) }
        }
        let columnNames = prepared.columnNames
        let columns = Dictionary(uniqueKeysWithValues: columnNames.enumerated().map { ($1, $0) })
        let count = CInt(columnNames.count)
        var records: [SQLRecord] = []
        while true {
            let code = sqlite3_step(sqlite)
            if code == SQLITE_DONE { return records }
            guard code == SQLITE_ROW else { throw failure(code) }
            records.append(
                SQLRecord(
                    columns: columns,
                    values: try (0..<count).map { index in
                        switch sqlite3_column_type(sqlite, index) {
                        case SQLITE_NULL: return .null
                        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(sqlite, index))
                        case SQLITE_TEXT: return .text(text(of: sqlite, at: index))
                        case SQLITE_BLOB:
                            let count = Int(sqlite3_column_bytes(sqlite, index))
                            return .blob(
                                sqlite3_column_blob(sqlite, index).map { Data(bytes: $0, count: count) } ?? Data())
                        default: throw StoreError.unexpectedValue(columnNames[Int(index)])
                        }
                    }))
        }
    }

    /// A text column as stored, all of its bytes: read as a C string (as GRDB reads text), a value holding U+0000
    /// would end there.
    private static func text(of sqlite: SQLiteStatement, at index: CInt) -> String {
        guard let start = sqlite3_column_text(sqlite, index) else { return "" }
        let count = Int(sqlite3_column_bytes(sqlite, index))
        return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// Binds one argument; SQLite copies text and bytes. Empty text and bytes are bound as such, not as the
    /// `NULL` that SQLite makes of a null pointer.
    private static func bind(_ value: SQLValue, to sqlite: SQLiteStatement, at index: CInt) -> CInt {
        switch value {
        case .null: return sqlite3_bind_null(sqlite, index)
        case .integer(let integer): return sqlite3_bind_int64(sqlite, index, integer)
        case .text(var text):
            guard !text.isEmpty else { return sqlite3_bind_text(sqlite, index, "", 0, transient) }
            return text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    sqlite3_bind_text(sqlite, index, $0.baseAddress, CInt($0.count), transient)
                }
            }
        case .blob(let data):
            guard !data.isEmpty else { return sqlite3_bind_zeroblob(sqlite, index, 0) }
            return data.withUnsafeBytes { sqlite3_bind_blob(sqlite, index, $0.baseAddress, CInt($0.count), transient) }
        }
    }

    /// SQLite's `SQLITE_TRANSIENT`: copy the bytes before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Closes the idle readers (their page caches and maps of the file), empties the writer's page cache and
    /// forgets which install rows were committed lately: each is rebuilt by the next commit or read that needs it.
    public func releaseMemory() async {
        committedInstalls.forget()
        pool.releaseMemoryEventually()
        try? await pool.writeWithoutTransaction { $0.releaseMemory() }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}

/// A transaction of ``SQLiteReportStore``: GRDB's database inside its transaction closure, each statement run as
/// it is asked for.
private struct SQLiteTransaction: SQLTransaction {
    let db: Database

    func run(_ statement: SQLStatement) throws -> [SQLRecord] {
        try SQLiteReportStore.records(statement, in: db)
    }

    func run(_ statements: [SQLStatement]) throws -> [[SQLRecord]] {
        try statements.map { try SQLiteReportStore.records($0, in: db) }
    }
}

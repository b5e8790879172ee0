import DecodeWatchStore
import DecodeWatchStorePostgres
import DecodeWatchStoreSQLite
import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing

/// The storage back ends; every store test runs against each (`@Test(arguments: StoreBackend.allCases)`).
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }

    /// Runs `body` on a fresh, empty database of this backend, then deletes it.
    ///
    /// SQLite gets a new file; PostgreSQL a new schema in the server named by
    /// `DECODEWATCH_TEST_DATABASE_URL` (`scripts/test` starts one), dropped afterwards.
    /// - Parameters:
    ///   - mode: whether the fixture's stores acknowledge batches from their log, as a collector's do.
    ///   - prepare: what is done to the database before a store opens it, such as writing an older schema.
    /// - Throws: ``TestSetupError`` when PostgreSQL is asked for and the variable is not set: the
    ///   PostgreSQL half never skips silently.
    func withFreshDatabase<T: Sendable>(
        mode: StoreMode = .direct, prepare: (FreshDatabase) async throws -> Void = { _ in },
        _ body: (StoreFixture) async throws -> T
    ) async throws -> T {
        let database = try await FreshDatabase.create(self)
        let outcome: Result<T, any Error>
        do {
            try await prepare(database)
            let fixture = try await StoreFixture(database: database, mode: mode)
            do { outcome = .success(try await body(fixture)) } catch { outcome = .failure(error) }
            await fixture.stopPools()
        } catch {
            outcome = .failure(error)
        }
        await database.drop()
        return try outcome.get()
    }

    /// ``withFreshDatabase(mode:prepare:_:)`` for a test that needs only the store.
    func withFreshStore<T: Sendable>(_ body: (any CollectorStore) async throws -> T) async throws -> T {
        try await withFreshDatabase { fixture in try await body(fixture.store) }
    }

    /// ``withFreshDatabase(mode:prepare:_:)`` with `seed` storing what `body` starts from, for suites whose tests
    /// share their stored reports.
    func withFreshDatabase<T: Sendable>(
        seed: (StoreFixture) async throws -> Void, _ body: (StoreFixture) async throws -> T
    ) async throws -> T {
        try await withFreshDatabase { fixture in
            try await seed(fixture)
            return try await body(fixture)
        }
    }
}

/// Which sink a test's batches go to: ``DirectBatchSink``, which writes each batch's rollups before it returns, or the
/// store's logged sink, which acknowledges from the log of acknowledged batches and folds later, as the collector
/// runs by default.
enum StoreMode: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case direct
    case logged

    var testDescription: String { rawValue }
}

/// A test that cannot run as set up.
struct TestSetupError: Error, CustomStringConvertible {
    let description: String
}

/// A fresh database of one backend, and how to reach it directly.
enum FreshDatabase: Sendable {
    case sqlite(folder: URL)
    case postgres(PostgresStoreConfiguration, admin: PostgresConnection)

    /// The SQL dialect of the database's store.
    var dialect: SQLDialect {
        switch self {
        case .sqlite: return .sqlite
        case .postgres: return .postgres
        }
    }

    /// The variable naming the PostgreSQL server the tests use.
    static let urlVariable = "DECODEWATCH_TEST_DATABASE_URL"

    /// The test server's configuration.
    /// - Throws: ``TestSetupError`` when ``urlVariable`` is not set.
    static func postgresConfiguration() throws -> PostgresStoreConfiguration {
        guard let url = ProcessInfo.processInfo.environment[urlVariable], !url.isEmpty else {
            throw TestSetupError(
                description: "\(urlVariable) is not set, so the PostgreSQL half of the store suite cannot run. "
                    + "Run the tests with scripts/test, which starts a private PostgreSQL and sets it.")
        }
        var configuration = try PostgresStoreConfiguration(url: url)
        // Some tests commit thousands of batches at once, far past a group commit's 64, on a machine that may
        // be busy: the suite checks what is stored, not the deadlines (PostgresFaultTests does).
        configuration.transactionTimeout = .seconds(60)
        return configuration
    }

    static func create(_ backend: StoreBackend) async throws -> FreshDatabase {
        switch backend {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return .sqlite(folder: folder)
        case .postgres:
            var configuration = try postgresConfiguration()
            let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            configuration.schema = schema
            let admin = try await PostgresConnection.connect(
                configuration: PostgresConnection.Configuration(
                    host: configuration.host, port: configuration.port, username: configuration.username,
                    password: configuration.password, database: configuration.database, tls: .disable),
                id: 0, logger: Logger(label: "decodewatch.tests"))
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"), logger: Self.logger)
            try await admin.query(PostgresQuery(unsafeSQL: "SET search_path TO \(schema)"), logger: Self.logger)
            return .postgres(configuration, admin: admin)
        }
    }

    static let logger = Logger(label: "decodewatch.tests")

    /// Opens a store on the database, and PostgreSQL's pool, which must run while the store is used.
    func open() throws -> (store: any CollectorStore, pool: PostgresReportStore?) {
        switch self {
        case .sqlite(let folder):
            return (try SQLiteReportStore(path: folder.appendingPathComponent("s.sqlite").path), nil)
        case .postgres(let configuration, _):
            let store = PostgresReportStore(configuration: configuration)
            return (store, store)
        }
    }

    /// A connection of its own to a SQLite database, which waits for the stores' writers rather than failing
    /// while one holds the file.
    static func connection(to folder: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: folder.appendingPathComponent("s.sqlite").path, configuration: configuration)
    }

    /// Runs SQL on the database directly, for rows the store API cannot write.
    func execute(_ sql: String) async throws {
        switch self {
        case .sqlite(let folder):
            try await Self.connection(to: folder).write { db in
                try db.execute(sql: sql)
            }
        case .postgres(_, let admin):
            try await admin.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger)
        }
    }

    /// Deletes the database.
    func drop() async {
        switch self {
        case .sqlite(let folder):
            try? FileManager.default.removeItem(at: folder)
        case .postgres(let configuration, let admin):
            _ = try? await admin.query(
                PostgresQuery(unsafeSQL: "DROP SCHEMA \(configuration.schema ?? "") CASCADE"), logger: Self.logger)
            try? await admin.close()
        }
    }
}

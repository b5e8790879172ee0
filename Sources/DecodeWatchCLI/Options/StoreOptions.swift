import ArgumentParser
import DecodeWatchStore
import DecodeWatchStorePostgres
import DecodeWatchStoreSQLite
import Foundation
import Logging
import ServiceLifecycle

/// Where the reports are stored; shared by every command that reads or writes them.
///
/// SQLite unless a PostgreSQL URL is given. A flag beats the environment; giving both flags, or
/// (without a flag) both variables, is refused rather than guessed.
struct StoreOptions: ParsableArguments {
    @Option(help: "SQLite database file. Default: $DECODEWATCH_DB, else ./decodewatch.sqlite.")
    var db: String?

    @Option(
        name: .customLong("database-url"),
        help: ArgumentHelp(
            "PostgreSQL instead of SQLite: postgres://user:password@host:5432/database?sslmode=require "
                + "(sslmode: disable, prefer, require, verify-full). Default: $DECODEWATCH_DATABASE_URL.",
            valueName: "url"))
    var databaseURL: String?

    @Option(
        name: .customLong("database-pool-size"),
        help:
            "Most connections to PostgreSQL this process opens (default \(PostgresStoreConfiguration.defaultPoolSize))."
    )
    var databasePoolSize: Int?

    /// The database the flags and the environment choose.
    enum Backend {
        /// An SQLite file.
        case sqlite(path: String)
        /// A PostgreSQL server.
        case postgres(PostgresStoreConfiguration)
    }

    func validate() throws {
        _ = try backend()
    }

    /// The database chosen by the flags, else by `DECODEWATCH_DB` or `DECODEWATCH_DATABASE_URL`.
    /// - Throws: `ValidationError` for conflicting choices or an unusable URL; never repeats a password.
    func backend(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Backend {
        if db != nil && databaseURL != nil {
            throw ValidationError(
                "--db and --database-url exclude each other: give the SQLite file or the PostgreSQL URL.")
        }
        var path = db
        var url = databaseURL
        var source = "--database-url"
        if db == nil && databaseURL == nil {
            path = environment["DECODEWATCH_DB"].flatMap { $0.isEmpty ? nil : $0 }
            url = environment["DECODEWATCH_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
            source = "DECODEWATCH_DATABASE_URL"
            if path != nil && url != nil {
                throw ValidationError(
                    "DECODEWATCH_DB and DECODEWATCH_DATABASE_URL are both set: unset one (or set it empty), "
                        + "or choose with --db or --database-url.")
            }
        }
        guard let url else {
            if databasePoolSize != nil {
                throw ValidationError("--database-pool-size applies to PostgreSQL only (--database-url).")
            }
            return .sqlite(path: path ?? "decodewatch.sqlite")
        }
        var configuration: PostgresStoreConfiguration
        do { configuration = try PostgresStoreConfiguration(url: url) } catch {
            throw ValidationError("\(source): \(error.message)")
        }
        if let databasePoolSize {
            guard (1...1000).contains(databasePoolSize) else {
                throw ValidationError("--database-pool-size must be 1–1000.")
            }
            configuration.poolSize = databasePoolSize
        }
        return .postgres(configuration)
    }

    /// Where the data is, for logs and messages: the SQLite path, or the URL without its password.
    var location: String {
        switch try? backend() {
        case .postgres(let configuration)?: return configuration.redactedURL
        case .sqlite(let path)?: return path
        case nil: return "?"
        }
    }

    /// Opens the store, migrating it when needed.
    ///
    /// Only `serve` (and `demo`, on its own file) creates a missing SQLite file unasked; the commands that add
    /// something (`keys create`, `tokens create`, `alerts add`, `contracts import`) create it with `--create`,
    /// and every other command refuses it. A mistyped `--db`, or a command run from the wrong folder, then
    /// fails instead of answering from a new, empty database, or storing a key no running collector reads.
    /// PostgreSQL is unaffected: its database is made by its operator, and the schema by any command.
    /// - Parameters:
    ///   - logger: the store's logger.
    ///   - creating: whether a missing SQLite file is created.
    /// - Returns: the store, and the service that keeps it: PostgreSQL's connection pool, or SQLite's
    ///   background checkpoint. Add it to the `ServiceGroup` before the services that use the store, so
    ///   that it shuts down after them.
    /// - Throws: ``MissingDatabaseError`` when `creating` is false and the SQLite file does not exist.
    func open(logger: Logger, creating: Bool) throws -> (store: any CollectorStore, service: any Service) {
        switch try backend() {
        case .sqlite(let path):
            if !creating && !FileManager.default.fileExists(atPath: path) { throw MissingDatabaseError(path: path) }
            let store = try SQLiteReportStore(path: path, logger: logger)
            return (store, SQLiteCheckpointer(store: store, path: path, logger: logger))
        case .postgres(let configuration):
            let store = PostgresReportStore(configuration: configuration, logger: logger)
            return (store, store)
        }
    }

    /// What `--create` says in the help of the commands that add something.
    static var createHelp: ArgumentHelp { "Create the SQLite file if it does not exist yet." }

    /// Runs short work that adds something, for a command that takes `--create`: a missing SQLite file is
    /// created only with it, and the refusal without it says so.
    /// - Parameters:
    ///   - createFlag: whether `--create` was given.
    ///   - body: the work.
    /// - Throws: ``MissingDatabaseError`` naming `--create`, or what `body` throws.
    func withStore<Result: Sendable>(
        createFlag: Bool, _ body: (any CollectorStore) async throws -> Result
    ) async throws -> Result {
        do {
            return try await withStore(creating: createFlag, body)
        } catch let error as MissingDatabaseError {
            throw MissingDatabaseError(path: error.path, takesCreate: true)
        }
    }

    /// Runs short work with the store, running its service (PostgreSQL's connection pool) around it and
    /// stopping it after.
    /// - Parameters:
    ///   - creating: whether a missing SQLite file is created; only for commands that add something
    ///     (see ``open(logger:creating:)``).
    ///   - logger: the store's logger. By default none: a short command reports a failure once, by
    ///     throwing, and swift-log's default handler would write to standard output, where `fields` prints.
    /// - Throws: ``MissingDatabaseError``, or what `body` throws.
    func withStore<Result: Sendable>(
        creating: Bool = false,
        logger: Logger = Logger(label: "decodewatch") { _ in SwiftLogNoOpLogHandler() },
        _ body: (any CollectorStore) async throws -> Result
    ) async throws -> Result {
        let (store, service) = try open(logger: logger, creating: creating)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask { try await service.run() }
            defer { group.cancelAll() }
            return try await body(store)
        }
    }
}

/// A command other than `serve` was pointed at an SQLite file that does not exist.
struct MissingDatabaseError: Error, CustomStringConvertible {
    /// The path given, or the default one.
    let path: String
    /// Whether the command takes `--create`, which the message then offers.
    var takesCreate = false

    var description: String {
        "No database at \(path): check --db (or DECODEWATCH_DB); `decodewatch serve --db \(path)` creates one"
            + (takesCreate ? ", or add --create to create it with this command." : ".")
    }
}

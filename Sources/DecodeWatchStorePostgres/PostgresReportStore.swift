import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The store for several collector replicas sharing one PostgreSQL (docs/ARCHITECTURE.md#storage).
///
/// It stores and answers exactly like ``SQLiteReportStore`` (the logic is shared, ``SQLStore``): each
/// batch is one `READ COMMITTED` transaction of additive upserts written in a stable order, so replicas
/// stay exact and never deadlock; reads run in one `REPEATABLE READ, READ ONLY` snapshot. Connections
/// come from a `PostgresClient` pool, which only works while ``run()`` runs: add the store to the
/// `ServiceGroup` (or run it in a task around short work) and graceful shutdown closes the pool.
/// Operations are synchronous (``SQLTransaction``): each runs on a thread of the store's own pool, one per pooled
/// connection, and waits there for each statement's answer, never on a task's or an event loop's thread.
/// The schema is migrated on first use, under an advisory lock so that replicas starting together
/// wait for one another.
public final class PostgresReportStore: SQLStore, Service {
    /// Where it connects; never shows the password.
    public let configuration: PostgresStoreConfiguration
    private let client: PostgresClient
    private let logger: Logger
    /// The logger PostgresNIO gets, at `info` or above: its trace output describes connection set-up in detail.
    private let driverLogger: Logger
    private let migrations = MigrationGate()
    /// The threads operations run on (``perform(access:_:)``), one per connection the pool may hand out, which
    /// each run at most one operation at a time; started and stopped by ``run()``.
    private let threads: NIOThreadPool
    /// Tells other replicas that this one is running, so that they leave the batches it logged to it.
    let presence: ReplicaPresence

    package var dialect: SQLDialect { .postgres }
    /// One: PostgreSQL sums with a hash aggregate and plans parallel workers itself, and the pool's connections
    /// are left to other requests.
    package var readSlices: Int { 1 }
    package let decodedContracts = DecodedContracts()
    package let committedInstalls = CommittedInstalls()

    /// Creates a store; nothing connects until ``run()`` runs and the store is used.
    /// - Parameters:
    ///   - configuration: where and how to connect.
    ///   - logger: where storage events are logged.
    public init(configuration: PostgresStoreConfiguration, logger: Logger = Logger(label: "decodewatch.store")) {
        self.configuration = configuration
        self.logger = logger
        logState = BatchLogState(logger: logger)
        var driverLogger = logger
        driverLogger.logLevel = max(logger.logLevel, .info)
        self.driverLogger = driverLogger
        var client = PostgresClient.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database,
            tls: configuration.tls.map { $0.enforced ? .require($0.settings) : .prefer($0.settings) } ?? .disable)
        client.options.maximumConnections = configuration.poolSize
        client.options.connectTimeout = configuration.connectTimeout
        client.options.additionalStartupParameters = configuration.startupParameters + configuration.sessionLimits
        self.client = PostgresClient(configuration: client, backgroundLogger: driverLogger)
        threads = NIOThreadPool(numberOfThreads: max(configuration.poolSize, 1))
        presence = ReplicaPresence(logger: logger) { [driverLogger] in
            do {
                return try await Self.connect(configuration, probed: true, logger: driverLogger)
            } catch {
                throw Self.describe(error, server: configuration.redactedURL)
            }
        }
    }

    /// Runs the connection pool, and the threads operations run on, until the task is cancelled or the service
    /// group shuts down gracefully.
    ///
    /// The threads stop last, once the operations they run have ended: the pool closed their connections, which
    /// fails what they wait for.
    public func run() async throws {
        threads.start()
        await client.run()
        await presence.end()
        try await threads.shutdownGracefully()
    }

    package let logState: BatchLogState

    /// The `ingest_log` table (``PostgresBatchLog``), which every replica appends to.
    package func openBatchLog() throws -> any BatchLog {
        PostgresBatchLog(store: self, logger: logger)
    }

    package func existingBatchLog() throws -> (any BatchLog)? {
        try openBatchLog()
    }

    /// Runs `body` on a thread of the store's (``run()``) in a transaction on a pooled connection, within the
    /// deadline of `access`: a thread hop per operation, and per statement a wait on that thread for the answer from
    /// the connection's event loop.
    package func perform<Result: Sendable>(
        access: SQLAccess, _ body: @escaping @Sendable (any SQLTransaction) throws -> Result
    ) async throws -> Result {
        try await onConnection(access: access) { connection in
            try await Self.transaction(on: connection, access: access, logger: self.driverLogger) {
                try await self.threads.runIfActive {
                    try body(PostgresTransaction(connection: connection, logger: self.driverLogger))
                }
            }
        }
    }

    /// Runs one statement outside a transaction block, where PostgreSQL makes it a transaction of its own, committed
    /// (durably) before it answers: the round trips for `BEGIN` and `COMMIT` that ``perform(access:_:)`` makes are
    /// saved, two of the three a batch log append used to wait for.
    func performAlone<Result: Sendable>(
        _ statement: SQLStatement, access: SQLAccess, read: @escaping @Sendable ([SQLRecord]) throws -> Result
    ) async throws -> Result {
        try await onConnection(access: access) { connection in
            guard !connection.isClosed else { throw ClosedConnectionError() }
            let answer = try Self.send(statement, on: connection, logger: self.driverLogger)
            return try read(try Self.records(of: try await answer.get()))
        }
    }

    /// Runs `body` on a pooled connection within the deadline of `access`, once the schema is migrated (and, for
    /// a read, once the batches acknowledged before it are folded); an error is thrown as a ``StoreError``.
    private func onConnection<Result: Sendable>(
        access: SQLAccess, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        if access == .read { try await settle() }
        do {
            try await migrations.once { try await self.migrate() }
            let timeout = access == .read ? configuration.readTimeout : configuration.transactionTimeout
            return try await withConnection(timeout: timeout, body)
        } catch let error as StoreError {
            throw error
        } catch {
            let storeError = describe(error)
            logger.error("PostgreSQL failed", metadata: ["error": "\(storeError.message)"])
            throw storeError
        }
    }

    /// Runs `body` on a pooled connection, with a deadline for each step: the connection must be handed out
    /// within ``PostgresStoreConfiguration/acquireTimeout`` and `body` must end within `timeout`, or the
    /// operation fails as unavailable.
    ///
    /// A `body` past its deadline has its connection closed, which fails its query and keeps the
    /// connection out of the pool; the caller is answered at the deadline whether or not the query ends
    /// (``withDeadline(_:isArmed:onExpiry:expired:doomed:_:)``).
    private func withConnection<Result: Sendable>(
        timeout transactionTimeout: Duration, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let handedOut = HandedOutFlag()
        let acquireTimeout = configuration.acquireTimeout
        let server = configuration.redactedURL
        return try await withDeadline(
            acquireTimeout, isArmed: { !handedOut.value.load(ordering: .sequentiallyConsistent) },
            expired: {
                StoreError(
                    .unavailable,
                    "No PostgreSQL connection within \(acquireTimeout.components.seconds) s at \(server); "
                        + "nothing was stored.")
            }
        ) {
            try await self.client.withConnection { connection in
                handedOut.value.store(true, ordering: .sequentiallyConsistent)
                return try await withDeadline(
                    transactionTimeout, onExpiry: { connection.close().whenComplete { _ in } },
                    expired: {
                        let error = StoreError(
                            .unavailable,
                            "PostgreSQL at \(server) did not finish the transaction within "
                                + "\(transactionTimeout.components.seconds) s, so its connection was closed; "
                                + "retry (a batch stored after all is answered as a duplicate).")
                        self.logger.error("PostgreSQL failed", metadata: ["error": "\(error.message)"])
                        return error
                    },
                    // A query in flight as its connection closes usually fails with it, but not always
                    // (see transaction(on:access:logger:_:)): the close answers the caller.
                    doomed: { connection.isClosed ? ClosedConnectionError() : nil }
                ) { try await body(connection) }
            }
        }
    }

    /// Applies the pending migrations on a connection of its own.
    ///
    /// Not a pooled one: the pool retries a failing connection for a while before giving up, while a
    /// direct connection fails at once with the server's reason (a wrong password, a refused
    /// connection), which is what a starting collector should report.
    private func migrate() async throws {
        let connection = try await Self.connect(configuration, logger: driverLogger)
        let applied: [Int64]
        do {
            applied = try await PostgresMigrations.migrate(
                on: connection, schema: configuration.schema, logger: driverLogger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
        if !applied.isEmpty {
            logger.notice(
                "Migrated the PostgreSQL schema",
                metadata: ["db.url": "\(configuration.redactedURL)", "migration.versions": "\(applied)"])
        }
    }

    /// Opens a connection of its own, outside the pool, with the schema as its `search_path`.
    /// - Parameter probed: whether the server probes the client for a silent network and ends the session, as it
    ///   does for pooled connections (``PostgresStoreConfiguration/sessionLimits``).
    private static func connect(
        _ configuration: PostgresStoreConfiguration, probed: Bool = false, logger: Logger
    ) async throws -> PostgresConnection {
        var tls = PostgresConnection.Configuration.TLS.disable
        if let settings = configuration.tls {
            let context = try NIOSSLContext(configuration: settings.settings)
            tls = settings.enforced ? .require(context) : .prefer(context)
        }
        var direct = PostgresConnection.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: tls)
        direct.options.additionalStartupParameters =
            configuration.startupParameters + (probed ? configuration.sessionLimits : [])
        direct.options.connectTimeout = TimeAmount(configuration.connectTimeout)
        return try await PostgresConnection.connect(configuration: direct, id: 0, logger: logger)
    }

    /// Runs `body` in one transaction, rolled back when it throws.
    ///
    /// Nothing is sent on a connection that is closed already (the server ended the session, or it was
    /// handed out as it closed): once the channel is torn down, PostgresNIO drops a query written to it
    /// without answering, so a ROLLBACK after the server went away could wait forever.
    private static func transaction<Result: Sendable>(
        on connection: PostgresConnection, access: SQLAccess, logger: Logger,
        _ body: () async throws -> Result
    ) async throws -> Result {
        let begin: PostgresQuery =
            access == .write ? "BEGIN" : "START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"
        guard !connection.isClosed else { throw ClosedConnectionError() }
        try await connection.query(begin, logger: logger)
        do {
            let result = try await body()
            try await connection.query("COMMIT", logger: logger)
            return result
        } catch {
            guard !connection.isClosed else { throw error }
            do {
                try await connection.query("ROLLBACK", logger: logger)
            } catch {
                // A connection whose transaction state is unknown must not go back to the pool.
                try? await connection.close().get()
            }
            throw error
        }
    }

    /// Queues a statement on the connection without waiting for the ones before it to be answered, so that
    /// statements sent together start on the connection's event loop as soon as the one before ends, instead of
    /// once their caller runs again: under load that wait was most of a fold's time.
    /// - Returns: the statement's answer.
    fileprivate static func send(_ statement: SQLStatement, on connection: PostgresConnection, logger: Logger)
        throws -> EventLoopFuture<PostgresQueryResult>
    {
        var bindings = PostgresBindings(capacity: statement.arguments.count)
        for argument in statement.arguments {
            switch argument {
            case .null: bindings.appendNull()
            case .integer(let integer): bindings.append(integer)
            case .text(let text): bindings.append(text)
            case .blob(let data): try bindings.append(data)
            }
        }
        return connection.query(PostgresQuery(unsafeSQL: statement.sql, binds: bindings), logger: logger)
    }

    /// A statement's rows as backend-neutral records.
    fileprivate static func records(of rows: PostgresQueryResult) throws -> [SQLRecord] {
        guard let first = rows.first else { return [] }
        let columns = Dictionary(uniqueKeysWithValues: first.enumerated().map { ($1.columnName, $0) })
        return try rows.map { SQLRecord(columns: columns, values: try $0.map(Self.value)) }
    }

    /// A cell as a backend-neutral value; the schema only holds `BIGINT`, `TEXT` and `BYTEA`.
    private static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .text, .varchar, .name, .bpchar: return .text(try cell.decode(String.self))
        case .bytea: return .blob(try cell.decode(Data.self))
        default: throw StoreError.unexpectedValue(cell.columnName)
        }
    }
}

/// A transaction of ``PostgresReportStore`` on its pooled connection, used on a thread of the store's pool: each
/// statement is sent to the connection's event loop and the thread waits for its answer.
private struct PostgresTransaction: SQLTransaction {
    let connection: PostgresConnection
    let logger: Logger

    func run(_ statement: SQLStatement) throws -> [SQLRecord] {
        try PostgresReportStore.records(
            of: try wait(for: try PostgresReportStore.send(statement, on: connection, logger: logger)))
    }

    /// Sends every statement before waiting for the first answer (``PostgresReportStore/send(_:on:logger:)``).
    func run(_ statements: [SQLStatement]) throws -> [[SQLRecord]] {
        let sent = try statements.map { try PostgresReportStore.send($0, on: connection, logger: logger) }
        return try sent.map { try PostgresReportStore.records(of: try wait(for: $0)) }
    }

    /// Blocks this thread until the connection answers a statement. It gives up once the connection is closed
    /// (at a deadline, or by the server), checking every ``doomCheckInterval``: a close usually fails what is in
    /// flight, but a statement written to a connection as it closes may never be answered.
    private func wait(for answer: EventLoopFuture<PostgresQueryResult>) throws -> PostgresQueryResult {
        let answered = ConditionLock(value: false)
        let result = NIOLockedValueBox<Result<PostgresQueryResult, any Error>?>(nil)
        answer.whenComplete { answer in
            answered.lock()
            result.withLockedValue { $0 = answer }
            answered.unlock(withValue: true)
        }
        let interval = doomCheckInterval.components
        let seconds = Double(interval.seconds) + Double(interval.attoseconds) / 1e18
        while !answered.lock(whenValue: true, timeoutSeconds: seconds) {
            guard !connection.isClosed else { throw ClosedConnectionError() }
        }
        answered.unlock()
        guard let answer = result.withLockedValue({ $0 }) else { throw ClosedConnectionError() }
        return try answer.get()
    }
}

/// Runs the migrations once per store, on first use: concurrent first uses wait for the same run,
/// and a failed run (say, the server was down) is tried again by the next use.
private actor MigrationGate {
    private var run: Task<Void, any Error>?

    func once(_ migrate: @escaping @Sendable () async throws -> Void) async throws {
        if let run { return try await run.value }
        let run = Task { try await migrate() }
        self.run = run
        do {
            try await run.value
        } catch {
            self.run = nil
            throw error
        }
    }
}

extension PostgresStoreConfiguration {
    /// The TLS settings of ``tlsMode``, and whether TLS is required; `nil` when disabled.
    fileprivate var tls: (settings: TLSConfiguration, enforced: Bool)? {
        var settings = TLSConfiguration.makeClientConfiguration()
        switch tlsMode {
        case .disable:
            return nil
        case .prefer, .require:
            settings.certificateVerification = .none
            return (settings, tlsMode == .require)
        case .verifyFull:
            if let rootCertificatePath { settings.trustRoots = .file(rootCertificatePath) }
            return (settings, true)
        }
    }

    /// Settings of pooled sessions, the server's side of the deadlines: a session the collector gave up on
    /// (closed at its deadline, or cut off by the network without a word) must not hold row locks that
    /// other replicas' commits wait for. The server ends a statement or an idle transaction that outlives
    /// any deadline, and probes a silent client within seconds instead of the system's two hours.
    /// Migrations connect without them: a backfill may rightly run longer.
    fileprivate var sessionLimits: [(String, String)] {
        let longest = max(transactionTimeout, readTimeout) * 2
        let milliseconds = longest.components.seconds * 1000 + longest.components.attoseconds / 1_000_000_000_000_000
        return [
            ("statement_timeout", "\(milliseconds)"), ("idle_in_transaction_session_timeout", "\(milliseconds)"),
            ("tcp_keepalives_idle", "10"), ("tcp_keepalives_interval", "5"), ("tcp_keepalives_count", "3"),
        ]
    }

    /// Settings sent when connecting: the schema to use.
    fileprivate var startupParameters: [(String, String)] {
        guard let schema else { return [] }
        return [("search_path", PostgresMigrations.quoted(schema))]
    }
}

/// Whether a pooled connection was handed out, shared by the operation and its lease deadline.
private final class HandedOutFlag: Sendable {
    let value = Atomic<Bool>(false)
}

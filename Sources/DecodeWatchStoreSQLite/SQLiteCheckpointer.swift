import DecodeWatchStore
import GRDB
import Logging
import ServiceLifecycle

/// Copies SQLite's write-ahead log into the database file in the background, so that commits never do.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1,000 pages, on the one
/// writer every ingest waits for, and there it cost a third of ingest throughput. While this service runs,
/// the writer's automatic checkpoint is off and every `interval` the log is checkpointed in two passes:
/// 1. from a connection of its own, `PASSIVE`: the bulk of the copying and the database file's `fsync`,
///    while commits go on;
/// 2. on the writer, between two commits, `PASSIVE` again: only what was committed during the first pass
///    is left. Once the whole log is in the database file, the next commit writes the log from its start.
///
/// Neither pass waits for readers, so a long read only delays the log's restart to a later interval. The
/// log thus holds about one interval of commits, and `journal_size_limit` trims the file when it restarts.
/// When the service shuts down gracefully, it checkpoints once more and turns the automatic checkpoint back on.
public struct SQLiteCheckpointer: Service {
    /// The log file is cut back to this size when it restarts after a burst.
    static let journalSizeLimit = 64 << 20

    private let store: SQLiteReportStore
    private let path: String
    private let interval: Duration
    private let logger: Logger

    /// - Parameters:
    ///   - store: the store whose log is checkpointed.
    ///   - path: the store's database file.
    ///   - interval: how often; the log holds about this much of the commits.
    ///   - logger: where a failed checkpoint is logged.
    public init(store: SQLiteReportStore, path: String, interval: Duration = .seconds(1), logger: Logger) {
        self.store = store
        self.path = path
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        var configuration = Configuration()
        configuration.label = "decodewatch.checkpoint"
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        // The writer's automatic checkpoint (SQLite's default: at 1,000 pages) is off while this runs.
        try await store.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "PRAGMA journal_size_limit = \(Self.journalSizeLimit)")
        }
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil {
                await checkpoint(using: connection)
            }
        }
        // Cancelled (at a short command's end) rather than shut down: the process is ending, and the log
        // is checkpointed by whatever writes to the file next.
        guard !Task.isCancelled else { return }
        await checkpoint(using: connection)
        try await store.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 1000") }
    }

    /// Runs both passes; a failure is logged and the next interval tries again.
    private func checkpoint(using connection: DatabaseQueue) async {
        do {
            _ = try await connection.writeWithoutTransaction { try $0.checkpoint(.passive) }
            _ = try await store.pool.writeWithoutTransaction { try $0.checkpoint(.passive) }
        } catch {
            logger.warning("SQLite checkpoint failed; retrying", metadata: ["error": "\(error)"])
        }
    }
}

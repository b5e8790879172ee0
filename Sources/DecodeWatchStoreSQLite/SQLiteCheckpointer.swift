import DecodeWatchStore
import GRDB
import Logging
import ServiceLifecycle

/// Copies SQLite's write-ahead logs into their files in the background, so that commits never do: the database's,
/// and, once the store acknowledges from it, the log of acknowledged batches' (``SQLiteBatchLog``).
///
/// SQLite's automatic checkpoint runs inside the commit that takes the write-ahead log past 1,000 pages, on the one
/// writer every ingest waits for: on the database it cost a third of ingest throughput, and on the log of
/// acknowledged batches (two pages a batch) it held an acknowledgment every few hundred batches. While this service
/// runs, each writer's automatic checkpoint is off and every `interval` each file is checkpointed in two passes:
/// 1. from a connection of its own, `PASSIVE`: the bulk of the copying and the file's `fsync`, while commits go on;
/// 2. on the writer, between two commits, `PASSIVE` again: only what was committed during the first pass
///    is left. Once the whole write-ahead log is in the file, the next commit writes it from its start.
///
/// Neither pass waits for readers, so a long read only delays the restart to a later interval. A write-ahead log
/// thus holds about one interval of commits, and `journal_size_limit` trims it when it restarts. When the service
/// shuts down gracefully, it checkpoints once more and turns the automatic checkpoints back on.
public struct SQLiteCheckpointer: Service {
    /// A write-ahead log is cut back to this size when it restarts after a burst.
    static let journalSizeLimit = 64 << 20

    private let store: SQLiteReportStore
    private let path: String
    private let interval: Duration
    private let logger: Logger

    /// - Parameters:
    ///   - store: the store whose files are checkpointed.
    ///   - path: the store's database file.
    ///   - interval: how often; each write-ahead log holds about this much of the commits.
    ///   - logger: where a failed checkpoint is logged.
    public init(store: SQLiteReportStore, path: String, interval: Duration = .seconds(1), logger: Logger) {
        self.store = store
        self.path = path
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        let database = try await File(path: path, writer: store.pool)
        let opened = try await logFile()
        let log = await cancelWhenGracefulShutdown { () async -> File? in
            var log = opened
            while (try? await Task.sleep(for: interval)) != nil {
                if log == nil { log = try? await logFile() }
                for file in [database, log].compactMap({ $0 }) { await checkpoint(file) }
            }
            return log
        }
        // Cancelled (at a short command's end) rather than shut down: the process is ending, and each write-ahead log
        // is checkpointed by whatever writes to its file next.
        guard !Task.isCancelled else { return }
        for file in [database, log].compactMap({ $0 }) {
            await checkpoint(file)
            try await file.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 1000") }
        }
    }

    /// The log of acknowledged batches, once the store appends to one.
    private func logFile() async throws -> File? {
        guard let appending = store.appendingLog else { return nil }
        return try await File(path: SQLiteBatchLog.path(for: path), writer: appending.queue)
    }

    /// Runs both passes; a failure is logged and the next interval tries again.
    private func checkpoint(_ file: File) async {
        do {
            _ = try await file.connection.writeWithoutTransaction { try $0.checkpoint(.passive) }
            _ = try await file.writer.writeWithoutTransaction { try $0.checkpoint(.passive) }
        } catch {
            logger.warning(
                "SQLite checkpoint failed; retrying", metadata: ["error": "\(error)", "file": "\(file.path)"])
        }
    }

    /// A file checkpointed by this service: its writer, whose automatic checkpoint is off, and a connection of the
    /// service's own.
    private struct File: Sendable {
        let path: String
        let writer: any DatabaseWriter
        let connection: DatabaseQueue

        init(path: String, writer: any DatabaseWriter) async throws {
            var configuration = Configuration()
            configuration.label = "decodewatch.checkpoint"
            self.path = path
            self.writer = writer
            connection = try DatabaseQueue(path: path, configuration: configuration)
            try await writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                try db.execute(sql: "PRAGMA journal_size_limit = \(SQLiteCheckpointer.journalSizeLimit)")
            }
        }
    }
}

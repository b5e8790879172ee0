import DecodeWatchStore
import Logging
import PostgresNIO

/// Shows the other replicas that this one is running: a session of its own holds an advisory lock on ``owner``,
/// the key this replica writes into each batch it logs (`ingest_log.owner`).
///
/// A replica claims only the logged batches whose owner's lock nobody holds (`PostgresBatchLog`): those of a
/// replica that stopped, whose session PostgreSQL ended with it. A running replica that folds slowly under load
/// keeps its batches, which it holds folded in memory, instead of another decoding them again from their bodies.
/// While the session is down (PostgreSQL restarted), the next append opens it again; meanwhile other replicas may
/// claim this one's batches, which stays exact (a batch is marked folded once).
actor ReplicaPresence {
    /// The key of the advisory lock: the bigint form, which `pg_locks` shows as `classid` (high 32 bits) and `objid`
    /// (low 32 bits) with `objsubid` 1. Below 2^62, so that both halves read back as non-negative.
    nonisolated let owner = Int64.random(in: 1..<(1 << 62))

    private let connect: @Sendable () async throws -> PostgresConnection
    private let logger: Logger
    private var session: PostgresConnection?
    private var opening: Task<Void, Never>?
    private var ended = false

    /// - Parameter connect: opens a connection outside the pool; what it throws is logged, so it must not show the
    ///   password.
    init(logger: Logger, connect: @escaping @Sendable () async throws -> PostgresConnection) {
        self.logger = logger
        self.connect = connect
    }

    /// Starts taking the lock when no session holds it; returns at once.
    func keep() {
        guard !ended, opening == nil, session?.isClosed ?? true else { return }
        opening = Task { await self.open() }
    }

    /// Ends the session, and with it the lock: the replica is stopping.
    func end() async {
        ended = true
        await opening?.value
        try? await session?.close()
        session = nil
    }

    private func open() async {
        defer { opening = nil }
        do {
            let connection = try await connect()
            do {
                try await connection.query("SELECT pg_advisory_lock(\(owner))", logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            if ended { try? await connection.close() } else { session = connection }
        } catch {
            logger.warning(
                "Cannot show other replicas that this one is running; they may fold its batches",
                metadata: ["error": "\((error as? StoreError)?.message ?? "\(error)")"])
        }
    }
}

import DecodeWatchStore
import Logging
import PostgresNIO

/// Shows the other replicas that this one is running: a session of its own holds an advisory lock on ``owner``,
/// the key this replica writes into each batch it logs (`ingest_log.owner`). The same session takes the replicas'
/// turns to fold (``takeTurn()``).
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
    private var inTurn = false
    /// The first key of the advisory lock replicas take turns to fold on ('DWfl'); the second is the schema's hash,
    /// so that replicas of separate schemas do not wait for one another.
    static let turnKey: Int32 = 0x4457_666C

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

    /// Waits until no other replica folds, and holds the turn until ``endTurn()``. Without a session (it is being
    /// opened, or PostgreSQL restarted) it returns at once: the fold's row locks keep folds exact anyway, and only
    /// the fold's size gains from the turn.
    func takeTurn() async {
        guard let session, !session.isClosed else { return }
        do {
            try await session.query(
                "SELECT pg_advisory_lock(\(Self.turnKey), hashtext(current_schema()))", logger: logger)
            inTurn = true
        } catch {
            logger.warning(
                "Cannot take a turn to fold; folding without", metadata: ["error": "\(String(describing: error))"])
        }
    }

    /// Ends the turn ``takeTurn()`` took, if it took one.
    func endTurn() async {
        guard inTurn, let session else { return }
        inTurn = false
        // When this fails, the session is gone, and its lock with it.
        _ = try? await session.query(
            "SELECT pg_advisory_unlock(\(Self.turnKey), hashtext(current_schema()))", logger: logger)
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

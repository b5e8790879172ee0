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
///
/// A replica holds in memory only the batches whose append it saw succeed. An append that failed may have committed
/// all the same: a deadline closed its connection while `COMMIT` was on its way, and PostgreSQL, frozen or slow,
/// committed it later. The client's retry is then answered as a duplicate, and the batch waits in the log for a
/// replica that does not know it. So a failed append gives up the key (``renew()``): what was logged under it is
/// claimed like a stopped replica's, by any replica, this one included.
actor ReplicaPresence {
    /// The key of the advisory lock, written into each batch logged now: the bigint form, which `pg_locks` shows as
    /// `classid` (high 32 bits) and `objid` (low 32 bits) with `objsubid` 1.
    private var owner = ReplicaPresence.newKey()

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
    /// - Returns: the key to write into the batches logged now (``owner``).
    @discardableResult
    func keep() -> Int64 {
        if !ended, opening == nil, session?.isClosed ?? true { opening = Task { await self.open() } }
        return owner
    }

    /// Gives up the key, and its lock, for a new one: what was logged under it is left to whichever replica sweeps
    /// first. The next ``keep()`` takes the new key's lock.
    func renew() async {
        owner = Self.newKey()
        let previous = session
        session = nil
        try? await previous?.close()
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
        let key = owner
        do {
            let connection = try await connect()
            do {
                try await connection.query("SELECT pg_advisory_lock(\(key))", logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            // Renewed meanwhile: the next keep() takes the new key.
            if ended || key != owner { try? await connection.close() } else { session = connection }
        } catch {
            logger.warning(
                "Cannot show other replicas that this one is running; they may fold its batches",
                metadata: ["error": "\((error as? StoreError)?.message ?? "\(error)")"])
        }
    }

    /// A random key below 2^62, so that both halves read back from `pg_locks` as non-negative.
    private static func newKey() -> Int64 { Int64.random(in: 1..<(1 << 62)) }
}

import DecodeWatchCore
import Foundation
import GRDB

extension SQLiteReportStore {
    /// Acknowledges from now on each batch that carries its ``BatchAggregate/source`` once the batch is in a log
    /// of its own (``PendingLog``, a second file next to the database), and folds the batches into the rollups in
    /// the background, many per transaction (``DeferredApplier``). Reads wait for the batches acknowledged before
    /// them, so an acknowledged batch is in every answer. Calling it again changes nothing.
    /// - Parameter rebuild: decodes a batch from its body as it was received, for the batches a stopped
    ///   collector left in the log; they are folded first.
    /// - Throws: ``StoreError`` with code `unavailable` when the log cannot be opened.
    public func acknowledgeBeforeWriting(
        rebuild: @escaping @Sendable (BatchSource, Date) throws -> BatchAggregate
    ) throws {
        let started = try applier.withLock { applier in
            if let applier { return applier }
            let started = DeferredApplier(
                log: try openLog(), logger: logger,
                write: { [weak self] batches in
                    guard let self else { return false }
                    _ = try await self.write(batches)
                    return true
                }, rebuild: rebuild)
            applier = started
            return started
        }
        Task { await started.recover() }
    }

    /// Stores batches as ``ReportStore/ingest(_:)-([BatchAggregate])`` says. After
    /// ``acknowledgeBeforeWriting(rebuild:)``, batches that all carry their ``BatchAggregate/source`` are stored in
    /// the log, after their groups are checked for id collisions, and folded into the rollups later.
    public func ingest(_ batches: [BatchAggregate]) async throws -> [IngestOutcome] {
        guard let applier = applier.withLock({ $0 }), batches.allSatisfy({ $0.source != nil }) else {
            return try await write(batches)
        }
        // Each distinct key's id once (batches sent together repeat the same groups), and only for keys not
        // already found stored: a key's id never changes, and only that key can store a group under it again
        // (retention deletes groups), short of a SHA-256 collision, which the fold still refuses.
        // Deltas are read in place, by index (a copy retains each of their strings and dictionaries), and a key
        // already checked, as nearly all are, is hashed once and goes no further.
        let checked = checkedKeys.withLock { $0 }
        var keys: [String: GroupKey] = [:]
        var unchecked: Set<GroupKey> = []
        for batch in batches.indices {
            for delta in batches[batch].groups.indices where !checked.contains(batches[batch].groups[delta].key) {
                let key = batches[batch].groups[delta].key
                if unchecked.insert(key).inserted { keys[key.id] = key }
            }
        }
        do {
            return try await applier.acknowledge(batches) { [pool, keys] identities in
                let (found, stored) = try pool.read { db in
                    (try Self.checkGroups(keys, in: db), try Self.stored(identities, in: db))
                }
                self.remember(found)
                return stored
            }
        } catch let error as DatabaseError {
            logger.error("SQLite write failed", metadata: ["error": "\(error)"])
            throw StoreError(
                .unavailable, "The SQLite log of acknowledged batches cannot commit: \(Self.describe(error)).")
        }
    }

    /// Refuses keys whose id a stored group of another key has (a SHA-256 collision), as the write would.
    /// - Returns: the keys found stored under their id.
    private static func checkGroups(_ keys: [String: GroupKey], in db: Database) throws -> [GroupKey] {
        let lookup = try db.cachedStatement(sql: "SELECT app_id, endpoint, path, kind FROM groups WHERE group_id = ?")
        return try keys.compactMap { id, key in
            guard let row = try Row.fetchOne(lookup, arguments: [id]) else { return nil }
            // Byte for byte (``GroupKey``'s equality), as the write compares them.
            guard let kind = ReportKind(rawValue: row["kind"]),
                GroupKey(app: row["app_id"], endpoint: row["endpoint"], path: row["path"], kind: kind) == key
            else { throw StoreError.groupConflict(id) }
            return key
        }
    }

    /// Most keys ``checkedKeys`` holds: a few megabytes, far more groups than apps break at once.
    static let checkedKeysLimit = 10_000

    private func remember(_ found: [GroupKey]) {
        guard !found.isEmpty else { return }
        checkedKeys.withLock { keys in
            if keys.count + found.count > Self.checkedKeysLimit { keys.removeAll() }
            keys.formUnion(found)
        }
    }

    /// Which of the batches the database has stored: one primary-key lookup each.
    private static func stored(_ identities: [BatchIdentity], in db: Database) throws -> Set<BatchIdentity> {
        let lookup = try db.cachedStatement(sql: "SELECT 1 FROM batches WHERE app_id = ? AND batch_id = ?")
        return Set(try identities.filter { try Bool.fetchOne(lookup, arguments: [$0.app, $0.batch]) ?? false })
    }

    /// Waits until the batches acknowledged so far are in the rollups: this process's, or another's (a running
    /// collector writes them within milliseconds; after 2 seconds the read goes on without them, and so do later
    /// reads).
    func settle() async throws {
        if let applier = applier.withLock({ $0 }) { return try await applier.settle() }
        guard FileManager.default.fileExists(atPath: PendingLog.path(for: path)),
            let others = try? othersLog.withLock({ state in
                if state == nil { state = (try openLog(), 0) }
                return state
            }),
            let newest = try await others.log.newest(), newest > others.skipped
        else { return }
        let deadline = ContinuousClock.now + .seconds(2)
        while try await others.log.holds(upTo: newest) {
            guard ContinuousClock.now < deadline else {
                othersLog.withLock { $0?.skipped = newest }
                logger.warning("Reading without batches acknowledged by a collector that has not stored them yet")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private func openLog() throws -> PendingLog {
        do {
            return try PendingLog(database: path, busyTimeout: busyTimeout)
        } catch {
            throw StoreError(.unavailable, "Cannot open the log of acknowledged batches: \(Self.describe(error)).")
        }
    }
}

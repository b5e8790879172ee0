import DecodeWatchCore
import Foundation

extension SQLStore {
    /// Refuses batches before they are logged when one of their groups' ids belongs to a stored group of another key
    /// (a SHA-256 collision), as their fold would: a batch refused at its fold would be lost after its 202.
    ///
    /// Each distinct key's id is looked up once (batches sent together repeat the same groups), and only for keys
    /// not already found stored: a key's id never changes, and only that key can store a group under it again
    /// (retention deletes groups). Deltas are read in place, by index (a copy retains each of their strings and
    /// dictionaries), and a key already checked, as nearly all are, is hashed once and goes no further.
    /// - Throws: ``StoreError`` with code `conflict` when a group's id belongs to another key.
    package func checkGroups(of batches: [BatchAggregate]) async throws {
        let checked = logState.checkedKeys.withLock { $0 }
        var keys: [String: GroupKey] = [:]
        var unchecked: Set<GroupKey> = []
        for batch in batches.indices {
            for delta in batches[batch].groups.indices where !checked.contains(batches[batch].groups[delta].key) {
                let key = batches[batch].groups[delta].key
                if unchecked.insert(key).inserted { keys[key.id] = key }
            }
        }
        guard !keys.isEmpty else { return }
        let ids = Array(keys.keys)
        let lookup = dialect.statement(
            """
            SELECT group_id, app_id, endpoint, path, kind FROM groups
            WHERE group_id IN (\(bind: ids.map(SQLValue.text)))
            """)
        let found = try await perform(access: .lookup) { [keys] tx in
            try tx.run(lookup).map { row in
                let id = try row.text("group_id")
                // Byte for byte (``GroupKey``'s equality), as the fold compares them.
                guard let key = keys[id], let kind = ReportKind(rawValue: try row.text("kind")),
                    GroupKey(
                        app: try row.text("app_id"), endpoint: try row.text("endpoint"),
                        path: try row.text("path"), kind: kind) == key
                else { throw StoreError.groupConflict(id) }
                return key
            }
        }
        logState.remember(found)
    }
}

extension BatchLogState {
    /// Most keys ``checkedKeys`` holds: a few megabytes, far more groups than apps break at once.
    static let checkedKeysLimit = 10_000

    func remember(_ found: [GroupKey]) {
        guard !found.isEmpty else { return }
        checkedKeys.withLock { keys in
            if keys.count + found.count > Self.checkedKeysLimit { keys.removeAll() }
            keys.formUnion(found)
        }
    }
}

import DecodeWatchCore
import Foundation

extension SQLStore {
    public func deleteExpired(before horizon: Date, minutesBefore: Date, limit: Int) async throws -> Int {
        let statements =
            cellDeletes(in: .minute, before: Minute.index(of: minutesBefore), limit: limit)
            + retentionStatements(before: horizon, limit: limit)
        return try await perform(
            try .runAll(statements) { results in .done(results.reduce(0) { $0 + $1.count }) }, access: .write)
    }

    /// The deletes of one retention step, children before what they hang on, each returning a row per
    /// row it deleted but for the rows hanging on a cell (``cellDeletes(in:before:limit:)``). Hourly cells and their day rows go by the hour index (the hour holding `horizon`
    /// stays; a day row holding it keeps its later hours, and one left with none goes the next day); batch ids
    /// by their receive time; a group only once it was last seen before the horizon and none of its
    /// hourly cells is left, with its decisions (mutes, history).
    private func retentionStatements(before horizon: Date, limit: Int) -> [SQLStatement] {
        let first = dialect.parameter(1)
        let cap = dialect.parameter(2)
        let byTime: [SQLValue] = [SQLValue(horizon), .integer(Int64(limit))]
        let expiredGroups = """
            SELECT g.group_id FROM groups g
            WHERE g.last_seen < \(first) AND NOT EXISTS (SELECT 1 FROM group_hours h WHERE h.group_seq = g.group_seq)
            ORDER BY g.group_id LIMIT \(cap)
            """
        let hour = Hour.index(of: horizon)
        return cellDeletes(in: .hour, before: hour, limit: limit)
            + DayCounts.expire(before: hour, limit: limit, dialect: dialect) + [
                SQLStatement(
                    """
                    DELETE FROM batches WHERE (app_id, batch_id) IN (
                        SELECT app_id, batch_id FROM batches WHERE received_at < \(first) LIMIT \(cap)
                    ) RETURNING 1 AS deleted
                    """, byTime)
            ]
            + ["group_status_events", "group_actions", "groups"].map { table in
                SQLStatement(
                    "DELETE FROM \(table) WHERE group_id IN (\(expiredGroups)) RETURNING 1 AS deleted", byTime)
            }
    }

    /// The deletes of one step of a rollup's cells before a bucket: the cells (with their versions,
    /// expected values and installs) and the decode counts. The cells and decode counts return a row per row
    /// deleted; the rows hanging on a cell go with it uncounted.
    ///
    /// A cell can hang up to ``InstallFold/limit`` install rows, so a step of 2,000 busy cells deletes up to two
    /// million. With `RETURNING`, SQLite took 2.3 s for a million of them (and each came back as a record) where
    /// the plain `DELETE` takes 0.26 s: the writer, and so every commit, waited that long.
    private func cellDeletes(in rollup: Rollup, before bucket: Int64, limit: Int) -> [SQLStatement] {
        let (first, cap, column) = (dialect.parameter(1), dialect.parameter(2), rollup.column)
        let arguments: [SQLValue] = [.integer(bucket), .integer(Int64(limit))]
        let expired = """
            SELECT group_seq, \(column) FROM \(rollup.groupCounts) WHERE \(column) < \(first)
            ORDER BY \(column), group_seq LIMIT \(cap)
            """
        return rollup.cellTables.map { table in
            let counted = table == rollup.groupCounts ? " RETURNING 1 AS deleted" : ""
            return SQLStatement(
                "DELETE FROM \(table) WHERE (group_seq, \(column)) IN (\(expired))\(counted)", arguments)
        } + [
            SQLStatement(
                """
                DELETE FROM \(rollup.endpointCounts) WHERE (app_id, endpoint, \(column)) IN (
                    SELECT app_id, endpoint, \(column) FROM \(rollup.endpointCounts) WHERE \(column) < \(first)
                    LIMIT \(cap)
                ) RETURNING 1 AS deleted
                """, arguments)
        ]
    }
}

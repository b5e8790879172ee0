import DecodeWatchCore
import Foundation

extension SQLStore {
    public func deleteExpired(before horizon: Date, minutesBefore: Date, limit: Int) async throws -> Int {
        // What was acknowledged before the sweep is folded first: an expired batch folded after it would stay until
        // the next sweep, an hour later.
        try await settle()
        let statements =
            cellDeletes(in: .minute, before: Minute.index(of: minutesBefore), limit: limit)
            + retentionStatements(before: horizon, limit: limit)
        let deleted = try await perform(access: .write) { [self] tx in
            let rows = try tx.run(statements).reduce(0) { $0 + $1.count }
            let groups = try tx.run(expiredGroupsDelete(before: horizon, limit: limit))
            let ids = try groups.map { try $0.text("group_id") }
            let seqs = try groups.map { try $0.integer("group_seq") }
            let history = try tx.run(historyDeletes(of: ids, seqs: seqs))
            return rows + groups.count + history.reduce(0) { $0 + $1.count }
        }
        // The collector's retention only deletes cells a day old or more, which ingest never leaves install rows
        // out of (``CommittedInstalls``); forgetting them all keeps that true for any horizon a caller passes.
        if deleted > 0 { committedInstalls.forget() }
        return deleted
    }

    /// The deletes of one retention step that come before its groups', children before what they hang on, each
    /// returning a row per row it deleted. Hourly cells and their day rows go by the hour index (the hour holding
    /// `horizon` stays; a day row holding it keeps its later hours, and one left with none goes the next day);
    /// batch ids and kept samples by their time, OS counts by their UTC day (the day holding `horizon` stays).
    private func retentionStatements(before horizon: Date, limit: Int) -> [SQLStatement] {
        var byTime = SQLBuilder(dialect)
        let (time, timeCap) = (byTime.bind(SQLValue(horizon)), byTime.bind(.integer(Int64(limit))))
        let hour = Hour.index(of: horizon)
        var byDay = SQLBuilder(dialect)
        let (day, dayCap) = (byDay.bind(.integer(hour / 24)), byDay.bind(.integer(Int64(limit))))
        return cellDeletes(in: .hour, before: hour, limit: limit)
            + DayCounts.expire(before: hour, limit: limit, dialect: dialect) + [
                byTime.statement(
                    appending: """
                        DELETE FROM batches WHERE (app_id, batch_id) IN (
                            SELECT app_id, batch_id FROM batches WHERE received_at < \(time) LIMIT \(timeCap)
                        ) RETURNING 1 AS deleted
                        """),
                byTime.statement(
                    appending: """
                        DELETE FROM group_samples WHERE (group_seq, slot) IN (
                            SELECT group_seq, slot FROM group_samples WHERE seen_at < \(time) LIMIT \(timeCap)
                        ) RETURNING 1 AS deleted
                        """),
                byDay.statement(
                    appending: """
                        DELETE FROM group_day_os WHERE (group_seq, day, os) IN (
                            SELECT group_seq, day, os FROM group_day_os WHERE day < \(day) LIMIT \(dayCap)
                        ) RETURNING 1 AS deleted
                        """),
            ]
    }

    /// Deletes up to `limit` groups last seen before the horizon with none of their hourly cells left; returns
    /// each deleted group's id.
    ///
    /// On PostgreSQL the groups are locked in id order, as ingest commits lock them, and a group's row that a
    /// commit held when this step reached it is checked again once that commit ends: a group reported again
    /// meanwhile stays.
    private func expiredGroupsDelete(before horizon: Date, limit: Int) -> SQLStatement {
        dialect.statement(
            """
            DELETE FROM groups WHERE group_id IN (
                SELECT g.group_id FROM groups g
                WHERE g.last_seen < \(bind: SQLValue(horizon))
                    AND NOT EXISTS (SELECT 1 FROM group_hours h WHERE h.group_seq = g.group_seq)
                ORDER BY g.group_id LIMIT \(bind: .integer(Int64(limit)))\(dialect.lockingClause)
            ) RETURNING group_id, group_seq
            """)
    }

    /// Deletes the decisions (mutes, history, the issue opened), the first and last seen per environment, the kept
    /// samples and the OS counts of the groups just deleted, each statement returning a row per row it deleted. After
    /// the groups, so a group that stays keeps them.
    /// - Parameters:
    ///   - groups: the deleted groups' ids.
    ///   - seqs: their `group_seq`.
    private func historyDeletes(of groups: [String], seqs: [Int64]) -> [SQLStatement] {
        guard !groups.isEmpty else { return [] }
        let byID = ["group_status_events", "group_actions", "group_issues"].map { table in
            dialect.statement(
                """
                DELETE FROM \(table) WHERE group_id IN (\(bind: groups.map(SQLValue.text)))
                RETURNING 1 AS deleted
                """)
        }
        return byID
            + ["group_environments", "group_samples", "group_day_os"].map { table in
                dialect.statement(
                    """
                    DELETE FROM \(table) WHERE group_seq IN (\(bind: seqs.map(SQLValue.integer)))
                    RETURNING 1 AS deleted
                    """)
            }
    }

    /// The deletes of one step of a rollup's cells before a bucket, each returning a row per row it deleted: up to
    /// `limit` install rows of the first `limit` expired cells, then those of these cells left without install
    /// rows (with their versions, expected values and sketch), and up to `limit` decode counts of each kind (per endpoint,
    /// and per endpoint and version).
    ///
    /// A cell can hang up to ``InstallFold/limit`` install rows: deleting all of those of `limit` cells at once
    /// made one step of busy cells delete millions of rows, which took SQLite seconds while every commit waited for
    /// the writer. A cell goes once a step finds
    /// none of its installs left, so a later step goes on where this one stopped.
    private func cellDeletes(in rollup: Rollup, before bucket: Int64, limit: Int) -> [SQLStatement] {
        let column = rollup.column
        var sql = SQLBuilder(dialect)
        let (first, cap) = (sql.bind(.integer(bucket)), sql.bind(.integer(Int64(limit))))
        let expired = """
            SELECT group_seq, \(column) FROM \(rollup.groupCounts) WHERE \(column) < \(first)
            ORDER BY \(column), group_seq LIMIT \(cap)
            """
        let installs = sql.statement(
            appending: """
                DELETE FROM \(rollup.installs) WHERE (group_seq, \(column), install_hash) IN (
                    SELECT i.group_seq, i.\(column), i.install_hash FROM (\(expired)) c
                    JOIN \(rollup.installs) i ON i.group_seq = c.group_seq AND i.\(column) = c.\(column)
                    LIMIT \(cap)
                ) RETURNING 1 AS deleted
                """)
        let emptied = """
            SELECT c.group_seq, c.\(column) FROM (\(expired)) c WHERE NOT EXISTS (
                SELECT 1 FROM \(rollup.installs) i WHERE i.group_seq = c.group_seq AND i.\(column) = c.\(column))
            """
        return [installs]
            + rollup.tablesBesideInstalls.map { table in
                sql.statement(
                    appending:
                        "DELETE FROM \(table) WHERE (group_seq, \(column)) IN (\(emptied)) RETURNING 1 AS deleted")
            }
            + [
                (rollup.endpointCounts, "app_id, endpoint"),
                (rollup.endpointVersionCounts, "app_id, version, endpoint"),
            ]
            .map { table, key in
                sql.statement(
                    appending: """
                        DELETE FROM \(table) WHERE (\(key), \(column)) IN (
                            SELECT \(key), \(column) FROM \(table) WHERE \(column) < \(first) LIMIT \(cap)
                        ) RETURNING 1 AS deleted
                        """)
            }
    }
}

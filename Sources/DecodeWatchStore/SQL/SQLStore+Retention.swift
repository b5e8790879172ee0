import DecodeWatchCore
import Foundation

extension SQLStore {
    public func deleteExpired(before horizon: Date, limit: Int) async throws -> Int {
        let statements = retentionStatements(before: horizon, limit: limit)
        return try await perform(
            try .runAll(statements) { results in .done(results.reduce(0) { $0 + $1.count }) }, access: .write)
    }

    /// The deletes of one retention step, children before what they hang on, each returning a row per
    /// row it deleted. Hourly cells go by the hour index (the hour holding `horizon` stays); batch ids
    /// by their receive time; a group only once it was last seen before the horizon and none of its
    /// hourly cells is left, with its decisions (mutes, history).
    private func retentionStatements(before horizon: Date, limit: Int) -> [SQLStatement] {
        let first = dialect.parameter(1)
        let cap = dialect.parameter(2)
        let byHour: [SQLValue] = [.integer(Hour.index(of: horizon)), .integer(Int64(limit))]
        let byTime: [SQLValue] = [SQLValue(horizon), .integer(Int64(limit))]
        let expiredCells =
            "SELECT group_id, hour FROM group_hours WHERE hour < \(first) ORDER BY hour, group_id LIMIT \(cap)"
        let expiredGroups = """
            SELECT g.group_id FROM groups g
            WHERE g.last_seen < \(first) AND NOT EXISTS (SELECT 1 FROM group_hours h WHERE h.group_id = g.group_id)
            ORDER BY g.group_id LIMIT \(cap)
            """
        let cells = ["group_hour_versions", "group_hour_expected", "group_hour_installs", "group_hours"].map { table in
            SQLStatement(
                "DELETE FROM \(table) WHERE (group_id, hour) IN (\(expiredCells)) RETURNING 1 AS deleted", byHour)
        }
        return cells + [
            SQLStatement(
                """
                DELETE FROM endpoint_hours WHERE (app_id, endpoint, hour) IN (
                    SELECT app_id, endpoint, hour FROM endpoint_hours WHERE hour < \(first) LIMIT \(cap)
                ) RETURNING 1 AS deleted
                """, byHour),
            SQLStatement(
                """
                DELETE FROM batches WHERE (app_id, batch_id) IN (
                    SELECT app_id, batch_id FROM batches WHERE received_at < \(first) LIMIT \(cap)
                ) RETURNING 1 AS deleted
                """, byTime),
        ]
            + ["group_status_events", "group_actions", "groups"].map { table in
                SQLStatement(
                    "DELETE FROM \(table) WHERE group_id IN (\(expiredGroups)) RETURNING 1 AS deleted", byTime)
            }
    }
}

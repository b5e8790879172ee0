import DecodeWatchCore
import Foundation

extension SQLStore {
    public func environments() async throws -> [String] {
        let statement = SQLStatement("SELECT DISTINCT environment FROM group_environments ORDER BY environment")
        return try await perform(access: .read) { try $0.run(statement).map { try $0.text("environment") } }
    }

    public func environmentBreakdown(group: String, since: Date, until: Date) async throws -> [EnvironmentFailures] {
        var sql = SQLBuilder(dialect)
        let window = WindowBuckets(since: since, until: until, now: until).bind(into: &sql)
        let seq = Rollup.seq(ofGroup: sql.bind(.text(group)))
        // The window's version cells of the group, summed by environment; first and last seen are the group's in
        // each environment, whatever the window.
        let cells = window.rows(of: \.versions, columns: "environment, count", where: " AND r.group_seq = \(seq)")
        sql.append(
            """
            SELECT e.environment, e.first_seen, e.last_seen, COALESCE(v.total, 0) AS total
            FROM group_environments e
            LEFT JOIN (
                SELECT environment, \(dialect.cappedSum("count")) AS total FROM \(cells) c GROUP BY environment
            ) v ON v.environment = e.environment
            WHERE e.group_seq = \(seq)
            """)
        let statement = sql.statement()
        return try await perform(access: .read) { tx in
            try tx.run(statement).map { row in
                EnvironmentFailures(
                    environment: try row.text("environment"), count: try row.count("total"),
                    firstSeen: try row.date("first_seen"), lastSeen: try row.date("last_seen"))
            }
            .sorted { ($0.count, $1.environment) > ($1.count, $0.environment) }
        }
    }
}

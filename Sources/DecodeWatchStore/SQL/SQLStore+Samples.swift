import DecodeWatchCore
import Foundation

extension SQLStore {
    public func samples(group: String) async throws -> [GroupSample] {
        var sql = SQLBuilder(dialect)
        let seq = Rollup.seq(ofGroup: sql.bind(.text(group)))
        sql.append(
            """
            SELECT snippet, version, os, environment, seen_at FROM group_samples
            WHERE group_seq = \(seq)
            ORDER BY seen_at DESC, slot
            """)
        let statement = sql.statement()
        return try await perform(access: .read) { tx in
            try tx.run(statement).map { row in
                GroupSample(
                    snippet: try row.optionalText("snippet"), version: try row.text("version"),
                    os: try row.text("os"), environment: try row.text("environment"),
                    seenAt: try row.date("seen_at"))
            }
        }
    }

    public func osBreakdown(group: String, since: Date, until: Date) async throws -> [OSFailures] {
        var sql = SQLBuilder(dialect)
        let seq = Rollup.seq(ofGroup: sql.bind(.text(group)))
        let (first, last) = (Hour.index(of: since) / 24, Hour.index(of: until.addingTimeInterval(-1)) / 24)
        sql.append(
            """
            SELECT os, \(dialect.cappedSum("count")) AS total FROM group_day_os
            WHERE group_seq = \(seq) AND day >= \(bind: .integer(first)) AND day <= \(bind: .integer(last))
            GROUP BY os
            """)
        let statement = sql.statement()
        return try await perform(access: .read) { tx in
            try tx.run(statement).map { OSFailures(os: try $0.text("os"), count: try $0.count("total")) }
                .sorted { ($0.count, $1.os) > ($1.count, $0.os) }
        }
    }
}

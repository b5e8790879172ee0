import DecodeWatchCore
import Foundation

extension SQLStore {
    public func samples(group: String) async throws -> [GroupSample] {
        let statement = SQLStatement(
            """
            SELECT snippet, version, os, environment, seen_at FROM group_samples
            WHERE group_seq = \(Rollup.seq(ofGroup: dialect.parameter(1)))
            ORDER BY seen_at DESC, slot
            """, [.text(group)])
        return try await perform(
            .fetch(statement) { rows in
                try rows.map { row in
                    GroupSample(
                        snippet: try row.optionalText("snippet"), version: try row.text("version"),
                        os: try row.text("os"), environment: try row.text("environment"),
                        seenAt: try row.date("seen_at"))
                }
            }, access: .read)
    }

    public func osBreakdown(group: String, since: Date, until: Date) async throws -> [OSFailures] {
        let p = dialect.parameter
        let statement = SQLStatement(
            """
            SELECT os, \(dialect.cappedSum("count")) AS total FROM group_day_os
            WHERE group_seq = \(Rollup.seq(ofGroup: p(1))) AND day >= \(p(2)) AND day <= \(p(3))
            GROUP BY os
            """,
            [
                .text(group), .integer(Hour.index(of: since) / 24),
                .integer(Hour.index(of: until.addingTimeInterval(-1)) / 24),
            ])
        return try await perform(
            .fetch(statement) { rows in
                try rows.map { OSFailures(os: try $0.text("os"), count: try $0.count("total")) }
                    .sorted { ($0.count, $1.os) > ($1.count, $0.os) }
            }, access: .read)
    }
}

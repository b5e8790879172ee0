import DecodeWatchCore
import Foundation

/// Every group failing in any of several windows, with its failures and its endpoint's decodes in each,
/// read in one pass: the rows of the windows' combined span are each added to the windows whose buckets
/// (``WindowBuckets``) hold them, so every window stays exact to the minute and the rollups are read once
/// however many windows there are.
///
/// With an environment, failures are that environment's version cells and decodes its decodes per version.
struct WindowIndex {
    let windows: [WindowBuckets]
    var environment: String? = nil
    let dialect: SQLDialect

    /// The statement; its rows have the `groups` columns of a lifecycle and key, and `total0`, `decodes0`,
    /// `total1`, … per window, in the order of ``windows`` (`decodesN` is `NULL` without decodes).
    var statement: SQLStatement {
        var sql = SQLBuilder(dialect)
        func bind(_ value: Int64) -> String { sql.bind(.integer(value)) }
        // A row is hourly (fine = 0) or per minute (fine = 1); each window takes its own buckets of each.
        func holds(_ window: WindowBuckets) -> String {
            let minutes = window.minutes.map { "(bucket >= \(bind($0.from)) AND bucket < \(bind($0.to)))" }
            return "(fine = 0 AND bucket >= \(bind(window.hours.from)) AND bucket < \(bind(window.hours.to)))"
                + " OR (fine = 1 AND (\(minutes.joined(separator: " OR "))))"
        }
        func sums(_ name: String) -> String {
            windows.indices.map {
                "\(dialect.cappedSum("CASE WHEN \(holds(windows[$0])) THEN count ELSE 0 END")) AS \(name)\($0)"
            }
            .joined(separator: ", ")
        }
        let hours = Self.span(windows.map(\.hours))
        let minutes = Self.span(windows.flatMap(\.minutes))
        func rows(_ table: KeyPath<Rollup, String>, _ key: String) -> String {
            func ofEnvironment() -> String {
                environment.map { " AND environment = \(sql.bind(.text($0)))" } ?? ""
            }
            return """
                (SELECT \(key), hour AS bucket, 0 AS fine, count FROM \(Rollup.hour[keyPath: table])
                 WHERE hour >= \(bind(hours.from)) AND hour < \(bind(hours.to))\(ofEnvironment())
                 UNION ALL
                 SELECT \(key), minute, 1, count FROM \(Rollup.minute[keyPath: table])
                 WHERE minute >= \(bind(minutes.from)) AND minute < \(bind(minutes.to))\(ofEnvironment()))
                """
        }
        var (failureCells, decodeCells) = (\Rollup.groupCounts, \Rollup.endpointCounts)
        if environment != nil { (failureCells, decodeCells) = (\Rollup.versions, \Rollup.endpointVersionCounts) }
        let failures =
            "SELECT group_seq, \(sums("total")) FROM \(rows(failureCells, "group_seq")) c GROUP BY group_seq"
        let decodes = """
            SELECT app_id, endpoint, \(sums("decodes")) FROM \(rows(decodeCells, "app_id, endpoint")) e
            GROUP BY app_id, endpoint
            """
        let perWindow = windows.indices.map { "h.total\($0), d.decodes\($0)" }.joined(separator: ", ")
        return sql.statement(
            appending: """
                SELECT g.group_id, g.app_id, g.endpoint, g.path, g.kind, g.first_seen, g.last_seen, g.state,
                       g.resolved_at, g.regressed_at, g.regressed_version, \(perWindow)
                FROM (\(failures)) h JOIN groups g ON g.group_seq = h.group_seq
                LEFT JOIN (\(decodes)) d ON d.app_id = g.app_id AND d.endpoint = g.endpoint
                """)
    }

    /// The smallest range holding every non-empty range; `(0, 0)` when all are empty.
    private static func span(_ ranges: [(from: Int64, to: Int64)]) -> (from: Int64, to: Int64) {
        let used = ranges.filter { $0.from < $0.to }
        guard let from = used.map(\.from).min(), let to = used.map(\.to).max() else { return (0, 0) }
        return (from, to)
    }
}

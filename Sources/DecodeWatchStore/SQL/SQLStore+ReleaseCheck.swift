import DecodeWatchCore
import Foundation

extension SQLStore {
    public func versionCounts(
        app: String, version: String, environment: String?, since: Date, until: Date
    ) async throws -> VersionCounts {
        // Both statements bind the same values, each built from a copy of `shared`.
        var shared = SQLBuilder(dialect)
        let window = WindowBuckets(since: since, until: until, now: Date()).bind(into: &shared)
        let (appID, versionID) = (shared.bind(.text(app)), shared.bind(.text(version)))
        let inEnvironment = environment.map { " AND r.environment = \(shared.bind(.text($0)))" } ?? ""
        let decodeRows = window.rows(
            of: \.endpointVersionCounts, columns: "endpoint, count",
            where: " AND app_id = \(appID) AND version = \(versionID)\(inEnvironment)")
        let decodes = shared.statement(
            appending: """
                SELECT endpoint, \(dialect.cappedSum("count")) AS total FROM \(decodeRows) e GROUP BY endpoint
                """)
        // The app's groups are read first and each one's cells of the version found by its key, rather than the
        // window's cells of every group checked against the app.
        let versionCells = window.rows(
            of: \.versions, columns: "r.group_seq, r.count",
            where:
                " AND r.group_seq = k.group_seq AND k.app_id = \(appID) AND r.version = \(versionID)\(inEnvironment)",
            joining: "groups k CROSS JOIN ")
        let fields = shared.statement(
            appending: """
                SELECT g.group_id, g.endpoint, g.path, g.kind, v.total
                FROM (SELECT group_seq, \(dialect.cappedSum("count")) AS total FROM \(versionCells) c
                      GROUP BY group_seq HAVING SUM(count) > 0) v
                JOIN groups g ON g.group_seq = v.group_seq
                """)
        return try await perform(access: .read) { tx in
            let results = try tx.run([decodes, fields])
            var perEndpoint: [String: Int] = [:]
            for row in results[0] {
                let total = try row.count("total")
                if total > 0 { perEndpoint[try row.text("endpoint")] = total }
            }
            let fields = try results[1].map { row in
                VersionField(
                    group: try row.text("group_id"), endpoint: try row.text("endpoint"), path: try row.text("path"),
                    kind: ReportKind(rawValue: try row.text("kind")) ?? .other, count: try row.count("total"))
            }
            return VersionCounts(decodes: perEndpoint, fields: fields)
        }
    }
}

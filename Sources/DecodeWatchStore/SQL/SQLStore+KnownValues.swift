import DecodeWatchCore

extension SQLStore {
    public func knownValues(of filter: QueryFilter, app: String?) async throws -> [String] {
        // Groups hold what reports carried; the decode counts per version what every batch carried, failing or not.
        let decodes = Rollup.hour.endpointVersionCounts
        var sql = SQLBuilder(dialect)
        let appID = app.map { sql.bind(.text($0)) }
        let byApp = appID.map { " WHERE app_id = \($0)" } ?? ""
        let sources: [String]
        switch filter {
        case .app: sources = ["SELECT app_id AS value FROM groups", "SELECT app_id AS value FROM \(decodes)"]
        case .version:
            sources = [
                "SELECT version AS value FROM \(decodes)\(byApp)",
                """
                SELECT v.version AS value FROM \(Rollup.hour.versions) v JOIN groups g ON g.group_seq = v.group_seq\
                \(appID.map { " WHERE g.app_id = \($0)" } ?? "")
                """,
            ]
        case .environment:
            sources = [
                "SELECT environment AS value FROM group_environments", "SELECT environment AS value FROM \(decodes)",
            ]
        case .endpoint:
            sources = [
                "SELECT endpoint AS value FROM groups\(byApp)", "SELECT endpoint AS value FROM \(decodes)\(byApp)",
            ]
        case .kind: sources = ["SELECT kind AS value FROM groups"]
        }
        sql.append("SELECT value FROM (\(sources.joined(separator: " UNION "))) known WHERE value <> '' ORDER BY value")
        let statement = sql.statement()
        return try await perform(access: .read) { try $0.run(statement).map { try $0.text("value") } }
    }
}

import DecodeWatchCore
import Foundation

extension SQLStore {
    public func hourlyCounts(groups: [String], environment: String?, since: Date, until: Date) async throws
        -> [String: [Int64: Int]]
    {
        guard !groups.isEmpty else { return [:] }
        // One environment's failures are its version cells'; every environment's, the group's hourly counts.
        let table = environment == nil ? "group_hours" : Rollup.hour.versions
        var sql = SQLBuilder(dialect)
        sql.append(
            """
            SELECT g.group_id, h.hour, \(dialect.cappedSum("h.count")) AS count
            FROM groups g JOIN \(table) h ON h.group_seq = g.group_seq
            WHERE g.group_id IN (\(bind: groups.map(SQLValue.text)))
              AND h.hour >= \(bind: .integer(Hour.index(of: since))) AND h.hour < \(bind: .integer(Hour.ceilingIndex(of: until)))
            """)
        if let environment { sql.append(" AND h.environment = \(bind: .text(environment))") }
        sql.append("\nGROUP BY g.group_id, h.hour")
        let statement = sql.statement()
        return try await perform(access: .read) { tx in
            var result: [String: [Int64: Int]] = [:]
            for row in try tx.run(statement) {
                result[try row.text("group_id"), default: [:]][try row.integer("hour")] = try row.count("count")
            }
            return result
        }
    }

    public func firstReport(app: String?, environment: String?) async throws -> Date? {
        var sql = SQLBuilder(dialect)
        if let environment {
            sql.append(
                """
                SELECT MIN(e.first_seen) AS first FROM groups g \
                JOIN group_environments e ON e.group_seq = g.group_seq AND e.environment = \(bind: .text(environment))
                """)
        } else {
            sql.append("SELECT MIN(g.first_seen) AS first FROM groups g")
        }
        if let app { sql.append(" WHERE g.app_id = \(bind: .text(app))") }
        let statement = sql.statement()
        return try await perform(access: .read) { try $0.run(statement).first?.optionalDate("first") }
    }

    public func lifecycles(groups: [String], environment: String?) async throws -> [String: GroupLifecycle] {
        guard !groups.isEmpty else { return [:] }
        // In one environment, a group is first seen when it first reported there.
        var sql = SQLBuilder(dialect)
        var (firstSeen, joined) = ("g.first_seen", "")
        if let environment {
            firstSeen = "COALESCE(e.first_seen, g.first_seen)"
            joined = """
                 LEFT JOIN group_environments e
                    ON e.group_seq = g.group_seq AND e.environment = \(sql.bind(.text(environment)))
                """
        }
        sql.append(
            """
            SELECT g.group_id, g.state, \(firstSeen) AS first_seen, g.resolved_at, g.regressed_at,
                   g.regressed_version
            FROM groups g\(joined)
            WHERE g.group_id IN (\(bind: groups.map(SQLValue.text)))
            """)
        let statement = sql.statement()
        return try await perform(access: .read) { tx in
            var result: [String: GroupLifecycle] = [:]
            for row in try tx.run(statement) { result[try row.text("group_id")] = try GroupLifecycle(row) }
            return result
        }
    }

    public func digestTotals(app: String?, environment: String?, since: Date, until: Date) async throws
        -> DigestWindowTotals
    {
        // The window's whole hours and, for a period that does not end on the hour, the minutes at its edges;
        // every statement binds all six bounds, so SQLite counts as many parameters as arguments.
        // The statements share these values, each built from a copy of `shared`.
        let window = WindowBuckets(since: since, until: until, now: Date())
        var shared = SQLBuilder(dialect)
        let bounds = window.bind(into: &shared)
        let filter = app.map { " AND g.app_id = \(shared.bind(.text($0)))" } ?? ""
        let ofEnvironment = environment.map { " AND r.environment = \(shared.bind(.text($0)))" } ?? ""
        // Each group's buckets are found by its key, `groups` read in key order (see ``WindowBuckets/Bounds/totals(hours:minutes:slice:)``):
        // the install tables have no index on the hour, and joining each of a busy day's rows to its group
        // cost more than reading them.
        func rows(_ table: KeyPath<Rollup, String>, _ columns: String) -> String {
            "FROM "
                + bounds.rows(
                    of: table, columns: columns, where: " AND r.group_seq = g.group_seq\(filter)\(ofEnvironment)",
                    joining: "groups g CROSS JOIN ") + " i"
        }
        // One environment's failures are the sum of its version cells; every environment's, the group totals.
        let totals =
            environment == nil
            ? bounds.totals(hours: window.hours)
            : """
            (SELECT i.group_seq, \(dialect.cappedSum("i.count")) AS total \(rows(\.versions, "r.group_seq, r.count"))
            GROUP BY i.group_seq HAVING SUM(i.count) > 0)
            """
        let counts = shared.statement(
            appending: """
                SELECT \(dialect.cappedSum("h.total")) AS total, COUNT(*) AS groups,
                       COUNT(DISTINCT g.app_id || ' ' || g.endpoint) AS endpoints
                FROM \(totals) h JOIN groups g ON g.group_seq = h.group_seq
                WHERE 1 = 1\(filter)
                """)
        let installs = shared.statement(
            appending: "SELECT COUNT(DISTINCT i.install_hash) AS installs \(rows(\.installs, "r.install_hash"))")
        let sketches = shared.statement(
            appending: "SELECT i.group_seq, i.sketch \(rows(\.installSketches, "r.group_seq, r.sketch"))")
        // With a sketch in the window, every group's installs are estimated together: they overlap.
        let hashes = shared.statement(appending: "SELECT DISTINCT i.install_hash \(rows(\.installs, "r.install_hash"))")
        return try await perform(access: .read) { tx in
            let results = try tx.run([counts, installs, sketches])
            guard let counts = results[0].first, let exact = results[1].first else {
                throw StoreError(.unavailable, "The database returned no totals.")
            }
            let totals: DigestWindowTotals = (
                count: try counts.count("total"), groups: try counts.count("groups"),
                installs: try exact.count("installs"), endpoints: try counts.count("endpoints")
            )
            guard !results[2].isEmpty else { return totals }
            var estimated = totals
            estimated.installs =
                try InstallSketches.estimates(sketches: results[2], hashes: try tx.run(hashes)) { _ in "" }[""] ?? 0
            return estimated
        }
    }

    public func claimDigestRun(_ key: DigestRunKey, token: String, now: Date, staleAfter: TimeInterval) async throws
        -> DigestClaim
    {
        // The insert wins for exactly one writer; the conditional update takes the row lock and
        // re-checks the row (PostgreSQL re-evaluates it after waiting), so a claim is never shared.
        let insert = dialect.statement(
            """
            INSERT INTO digest_runs (period_start, period_end, destination, claim_token, claimed_at, attempts)
            VALUES (\(bind: [SQLValue(key.period.since), SQLValue(key.period.until), .text(key.destination)]),
                    \(bind: [.text(token), SQLValue(now)]), 1)
            ON CONFLICT (period_start, period_end, destination) DO NOTHING RETURNING attempts
            """)
        var takeOver = SQLBuilder(dialect)
        let ofKey = key.condition(&takeOver)
        takeOver.append(
            """
            UPDATE digest_runs SET claim_token = \(bind: .text(token)), claimed_at = \(bind: SQLValue(now)),
                attempts = attempts + 1
            WHERE \(ofKey) AND delivered_at IS NULL
                AND (claim_token IS NULL OR claimed_at < \(bind: SQLValue(now.addingTimeInterval(-staleAfter))))
            """)
        let takeOverStatement = takeOver.statement()
        let read = key.select(dialect)
        return try await perform(access: .write) { tx in
            guard try tx.run(insert).isEmpty else { return .claimed(attempt: 1) }
            guard let row = try tx.run([takeOverStatement, read])[1].first else {
                throw StoreError(.unavailable, "The digest run record vanished while claiming it.")
            }
            if let delivered = try row.optionalDate("delivered_at") { return .delivered(at: delivered) }
            if try row.optionalText("claim_token") == token { return .claimed(attempt: try row.count("attempts")) }
            return .inProgress(since: try row.optionalDate("claimed_at") ?? now)
        }
    }

    public func markDigestDelivered(_ key: DigestRunKey, token: String, at date: Date) async throws -> Bool {
        var shared = SQLBuilder(dialect)
        let (ofKey, deliveredAt) = (key.condition(&shared), shared.bind(SQLValue(date)))
        let ours = shared.statement(
            appending: """
                UPDATE digest_runs SET delivered_at = \(deliveredAt), claim_token = NULL, last_error = NULL
                WHERE \(ofKey) AND claim_token = \(bind: .text(token)) RETURNING attempts
                """)
        // Taken over after our claim went stale: still record the delivery, once.
        let theirs = shared.statement(
            appending: "UPDATE digest_runs SET delivered_at = \(deliveredAt) WHERE \(ofKey) AND delivered_at IS NULL")
        return try await perform(access: .write) { tx in
            guard try tx.run(ours).isEmpty else { return true }
            _ = try tx.run(theirs)
            return false
        }
    }

    public func releaseDigestRun(_ key: DigestRunKey, token: String, error: String, at date: Date) async throws {
        var sql = SQLBuilder(dialect)
        let ofKey = key.condition(&sql)
        sql.append(
            """
            UPDATE digest_runs SET claim_token = NULL, claimed_at = NULL, last_error = \(bind: .text(String(error.prefix(1000))))
            WHERE \(ofKey) AND claim_token = \(bind: .text(token))
            """)
        let statement = sql.statement()
        try await perform(access: .write) { _ = try $0.run(statement) }
    }

    public func digestRun(_ key: DigestRunKey) async throws -> DigestRunRecord? {
        let statement = key.select(dialect)
        return try await perform(access: .read) { tx in
            try tx.run(statement).first.map { row in
                DigestRunRecord(
                    key: key, claimedAt: try row.optionalDate("claimed_at"),
                    deliveredAt: try row.optionalDate("delivered_at"), attempts: try row.count("attempts"),
                    lastError: try row.optionalText("last_error"))
            }
        }
    }

    public func autoResolve(quietFor: TimeInterval, now: Date) async throws -> [String] {
        let statement = dialect.statement(
            """
            UPDATE groups SET state = 'resolved', resolved_at = \(bind: SQLValue(now))
            WHERE group_id IN (
                SELECT group_id FROM groups
                WHERE state <> 'resolved' AND last_seen < \(bind: SQLValue(now.addingTimeInterval(-quietFor)))
                ORDER BY group_id\(dialect.lockingClause))
            RETURNING group_id
            """)
        return try await perform(access: .write) { try $0.run(statement).map { try $0.text("group_id") }.sorted() }
    }
}

extension DigestRunKey {
    /// Binds the key and returns the condition that selects its row.
    fileprivate func condition(_ sql: inout SQLBuilder) -> String {
        let (start, end) = (sql.bind(SQLValue(period.since)), sql.bind(SQLValue(period.until)))
        return "period_start = \(start) AND period_end = \(end) AND destination = \(sql.bind(.text(destination)))"
    }

    /// Reads the record of this key.
    fileprivate func select(_ dialect: SQLDialect) -> SQLStatement {
        var sql = SQLBuilder(dialect)
        let ofKey = condition(&sql)
        return sql.statement(
            appending: """
                SELECT claim_token, claimed_at, delivered_at, attempts, last_error FROM digest_runs
                WHERE \(ofKey)
                """)
    }
}

import DecodeWatchCore
import Foundation

extension SQLStore {
    public func hourlyCounts(groups: [String], environment: String?, since: Date, until: Date) async throws
        -> [String: [Int64: Int]]
    {
        guard !groups.isEmpty else { return [:] }
        // One environment's failures are its version cells'; every environment's, the group's hourly counts.
        let table = environment == nil ? "group_hours" : Rollup.hour.versions
        let ofEnvironment = environment == nil ? "" : " AND h.environment = \(dialect.parameter(3 + groups.count))"
        let statement = SQLStatement(
            """
            SELECT g.group_id, h.hour, \(dialect.cappedSum("h.count")) AS count
            FROM groups g JOIN \(table) h ON h.group_seq = g.group_seq
            WHERE g.group_id IN (\(dialect.parameters(from: 3, count: groups.count)))
              AND h.hour >= \(dialect.parameter(1)) AND h.hour < \(dialect.parameter(2))\(ofEnvironment)
            GROUP BY g.group_id, h.hour
            """,
            [.integer(Hour.index(of: since)), .integer(Hour.ceilingIndex(of: until))] + groups.map(SQLValue.text)
                + (environment.map { [SQLValue.text($0)] } ?? []))
        return try await perform(
            .fetch(statement) { rows in
                var result: [String: [Int64: Int]] = [:]
                for row in rows {
                    result[try row.text("group_id"), default: [:]][try row.integer("hour")] = try row.count("count")
                }
                return result
            }, access: .read)
    }

    public func firstReport(app: String?, environment: String?) async throws -> Date? {
        var (firstSeen, joined, conditions, arguments) = ("g.first_seen", "", [String](), [SQLValue]())
        if let environment {
            arguments.append(.text(environment))
            firstSeen = "e.first_seen"
            joined = " JOIN group_environments e ON e.group_seq = g.group_seq AND e.environment = \(dialect.parameter(1))"
        }
        if let app {
            arguments.append(.text(app))
            conditions.append(" WHERE g.app_id = \(dialect.parameter(arguments.count))")
        }
        let statement = SQLStatement(
            "SELECT MIN(\(firstSeen)) AS first FROM groups g\(joined)\(conditions.joined())", arguments)
        return try await perform(.fetch(statement) { try $0.first?.optionalDate("first") }, access: .read)
    }

    public func lifecycles(groups: [String], environment: String?) async throws -> [String: GroupLifecycle] {
        guard !groups.isEmpty else { return [:] }
        // In one environment, a group is first seen when it first reported there.
        var (firstSeen, joined) = ("g.first_seen", "")
        if environment != nil {
            firstSeen = "COALESCE(e.first_seen, g.first_seen)"
            joined = """
                 LEFT JOIN group_environments e
                    ON e.group_seq = g.group_seq AND e.environment = \(dialect.parameter(groups.count + 1))
                """
        }
        let statement = SQLStatement(
            """
            SELECT g.group_id, g.state, \(firstSeen) AS first_seen, g.resolved_at, g.regressed_at,
                   g.regressed_version
            FROM groups g\(joined)
            WHERE g.group_id IN (\(dialect.parameters(from: 1, count: groups.count)))
            """,
            groups.map(SQLValue.text) + (environment.map { [SQLValue.text($0)] } ?? []))
        return try await perform(
            .fetch(statement) { rows in
                var result: [String: GroupLifecycle] = [:]
                for row in rows { result[try row.text("group_id")] = try GroupLifecycle(row) }
                return result
            }, access: .read)
    }

    public func digestTotals(app: String?, environment: String?, since: Date, until: Date) async throws
        -> DigestWindowTotals
    {
        // The window's whole hours and, for a period that does not end on the hour, the minutes at its edges;
        // every statement binds all six bounds, so SQLite counts as many parameters as arguments.
        let window = WindowBuckets(since: since, until: until, now: Date())
        var arguments = window.arguments
        var filter = ""
        if let app {
            arguments.append(.text(app))
            filter = " AND g.app_id = \(dialect.parameter(arguments.count))"
        }
        var ofEnvironment = ""
        if let environment {
            arguments.append(.text(environment))
            ofEnvironment = " AND r.environment = \(dialect.parameter(arguments.count))"
        }
        // Each group's buckets are found by its key, `groups` read in key order (see ``WindowBuckets/totals``):
        // the install tables have no index on the hour, and joining each of a busy day's rows to its group
        // cost more than reading them.
        func rows(_ table: KeyPath<Rollup, String>, _ columns: String) -> String {
            "FROM "
                + WindowBuckets.rows(
                    of: table, columns: columns, where: " AND r.group_seq = g.group_seq\(filter)\(ofEnvironment)",
                    joining: "groups g CROSS JOIN ", dialect: dialect) + " i"
        }
        // One environment's failures are the sum of its version cells; every environment's, the group totals.
        let totals =
            environment == nil
            ? WindowBuckets.totals(dialect: dialect, hours: window.hours)
            : """
            (SELECT i.group_seq, \(dialect.cappedSum("i.count")) AS total \(rows(\.versions, "r.group_seq, r.count"))
            GROUP BY i.group_seq HAVING SUM(i.count) > 0)
            """
        let counts = SQLStatement(
            """
            SELECT \(dialect.cappedSum("h.total")) AS total, COUNT(*) AS groups,
                   COUNT(DISTINCT g.app_id || ' ' || g.endpoint) AS endpoints
            FROM \(totals) h JOIN groups g ON g.group_seq = h.group_seq
            WHERE 1 = 1\(filter)
            """,
            arguments)
        let installs = SQLStatement(
            "SELECT COUNT(DISTINCT i.install_hash) AS installs \(rows(\.installs, "r.install_hash"))", arguments)
        let sketches = SQLStatement(
            "SELECT i.group_seq, i.sketch \(rows(\.installSketches, "r.group_seq, r.sketch"))", arguments)
        // With a sketch in the window, every group's installs are estimated together: they overlap.
        let hashes = SQLStatement(
            "SELECT DISTINCT i.install_hash \(rows(\.installs, "r.install_hash"))", arguments)
        let step = try SQLStep<DigestWindowTotals>.runAll([counts, installs, sketches]) { results in
            guard let counts = results[0].first, let exact = results[1].first else {
                throw StoreError(.unavailable, "The database returned no totals.")
            }
            let totals: DigestWindowTotals = (
                count: try counts.count("total"), groups: try counts.count("groups"),
                installs: try exact.count("installs"), endpoints: try counts.count("endpoints")
            )
            guard !results[2].isEmpty else { return .done(totals) }
            return .run(hashes) { hashes in
                var estimated = totals
                estimated.installs =
                    try InstallSketches.estimates(sketches: results[2], hashes: hashes) { _ in "" }[""] ?? 0
                return .done(estimated)
            }
        }
        return try await perform(step, access: .read)
    }

    public func claimDigestRun(_ key: DigestRunKey, token: String, now: Date, staleAfter: TimeInterval) async throws
        -> DigestClaim
    {
        let p = dialect.parameter
        let keyArguments = key.arguments
        let ofKey = DigestRunKey.condition(dialect)
        // The insert wins for exactly one writer; the conditional update takes the row lock and
        // re-checks the row (PostgreSQL re-evaluates it after waiting), so a claim is never shared.
        let insert = SQLStatement(
            """
            INSERT INTO digest_runs (period_start, period_end, destination, claim_token, claimed_at, attempts)
            VALUES (\(dialect.parameters(from: 1, count: 5)), 1)
            ON CONFLICT (period_start, period_end, destination) DO NOTHING RETURNING attempts
            """,
            keyArguments + [.text(token), SQLValue(now)])
        let takeOver = SQLStatement(
            """
            UPDATE digest_runs SET claim_token = \(p(4)), claimed_at = \(p(5)), attempts = attempts + 1
            WHERE \(ofKey) AND delivered_at IS NULL AND (claim_token IS NULL OR claimed_at < \(p(6)))
            """,
            keyArguments + [.text(token), SQLValue(now), SQLValue(now.addingTimeInterval(-staleAfter))])
        let read = key.select(dialect)
        let step = SQLStep<DigestClaim>.run(insert) { inserted in
            guard inserted.isEmpty else { return .done(.claimed(attempt: 1)) }
            return try .runAll([takeOver, read]) { results in
                guard let row = results[1].first else {
                    throw StoreError(.unavailable, "The digest run record vanished while claiming it.")
                }
                if let delivered = try row.optionalDate("delivered_at") { return .done(.delivered(at: delivered)) }
                if try row.optionalText("claim_token") == token {
                    return .done(.claimed(attempt: try row.count("attempts")))
                }
                return .done(.inProgress(since: try row.optionalDate("claimed_at") ?? now))
            }
        }
        return try await perform(step, access: .write)
    }

    public func markDigestDelivered(_ key: DigestRunKey, token: String, at date: Date) async throws -> Bool {
        let p = dialect.parameter
        let ofKey = DigestRunKey.condition(dialect)
        let ours = SQLStatement(
            """
            UPDATE digest_runs SET delivered_at = \(p(4)), claim_token = NULL, last_error = NULL
            WHERE \(ofKey) AND claim_token = \(p(5)) RETURNING attempts
            """,
            key.arguments + [SQLValue(date), .text(token)])
        // Taken over after our claim went stale: still record the delivery, once.
        let theirs = SQLStatement(
            "UPDATE digest_runs SET delivered_at = \(p(4)) WHERE \(ofKey) AND delivered_at IS NULL",
            key.arguments + [SQLValue(date)])
        let step = SQLStep<Bool>.run(ours) { updated in
            guard updated.isEmpty else { return .done(true) }
            return .run(theirs) { _ in .done(false) }
        }
        return try await perform(step, access: .write)
    }

    public func releaseDigestRun(_ key: DigestRunKey, token: String, error: String, at date: Date) async throws {
        let p = dialect.parameter
        let statement = SQLStatement(
            """
            UPDATE digest_runs SET claim_token = NULL, claimed_at = NULL, last_error = \(p(4))
            WHERE \(DigestRunKey.condition(dialect)) AND claim_token = \(p(5))
            """,
            key.arguments + [.text(String(error.prefix(1000))), .text(token)])
        try await perform(.fetch(statement) { _ in }, access: .write)
    }

    public func digestRun(_ key: DigestRunKey) async throws -> DigestRunRecord? {
        let statement = key.select(dialect)
        return try await perform(
            .fetch(statement) { rows in
                try rows.first.map { row in
                    DigestRunRecord(
                        key: key, claimedAt: try row.optionalDate("claimed_at"),
                        deliveredAt: try row.optionalDate("delivered_at"), attempts: try row.count("attempts"),
                        lastError: try row.optionalText("last_error"))
                }
            }, access: .read)
    }

    public func autoResolve(quietFor: TimeInterval, now: Date) async throws -> [String] {
        let p = dialect.parameter
        let statement = SQLStatement(
            """
            UPDATE groups SET state = 'resolved', resolved_at = \(p(1))
            WHERE group_id IN (
                SELECT group_id FROM groups WHERE state <> 'resolved' AND last_seen < \(p(2))
                ORDER BY group_id\(dialect.lockingClause))
            RETURNING group_id
            """,
            [SQLValue(now), SQLValue(now.addingTimeInterval(-quietFor))])
        return try await perform(.fetch(statement) { try $0.map { try $0.text("group_id") }.sorted() }, access: .write)
    }
}

extension DigestRunKey {
    /// Parameters 1–3 of every `digest_runs` statement: period start, period end, destination.
    fileprivate var arguments: [SQLValue] {
        [SQLValue(period.since), SQLValue(period.until), .text(destination)]
    }

    /// Selects the row of the key bound by ``arguments``.
    fileprivate static func condition(_ dialect: SQLDialect) -> String {
        let p = dialect.parameter
        return "period_start = \(p(1)) AND period_end = \(p(2)) AND destination = \(p(3))"
    }

    /// Reads the record of this key.
    fileprivate func select(_ dialect: SQLDialect) -> SQLStatement {
        SQLStatement(
            """
            SELECT claim_token, claimed_at, delivered_at, attempts, last_error FROM digest_runs
            WHERE \(Self.condition(dialect))
            """,
            arguments)
    }
}

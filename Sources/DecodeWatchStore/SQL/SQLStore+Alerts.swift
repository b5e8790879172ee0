import DecodeWatchCore
import Foundation

extension SQLStore {
    public func addAlertRule(_ rule: AlertRule) async throws {
        let values: [SQLValue] = [
            .text(rule.id), .text(rule.name), SQLValue(rule.app), SQLValue(rule.endpoint),
            SQLValue(rule.kind?.rawValue), .text(rule.condition.description), .integer(Int64(rule.window)),
            .text(rule.webhook.absoluteString), .text(rule.format.rawValue), SQLValue(rule.createdAt),
            SQLValue(rule.environment),
        ]
        let statement = dialect.statement(
            """
            INSERT INTO alert_rules (rule_id, name, app_id, endpoint, kind, fires_when, window_seconds, webhook,
                                     format, created_at, environment)
            VALUES (\(bind: values))
            ON CONFLICT DO NOTHING RETURNING rule_id
            """)
        let inserted = try await perform(access: .write) { try $0.run(statement).count }
        guard inserted > 0 else {
            throw StoreError(
                .conflict, "A rule named '\(rule.name)' exists; choose another --name or remove that rule first.")
        }
    }

    public func alertRules() async throws -> [AlertRule] {
        let statement = SQLStatement(
            """
            SELECT rule_id, name, app_id, endpoint, kind, fires_when, window_seconds, webhook, format, created_at,
                   environment
            FROM alert_rules ORDER BY created_at, rule_id
            """)
        return try await perform(access: .read) { try $0.run(statement).map(AlertRule.init) }
    }

    public func removeAlertRule(id: String) async throws {
        let claims = dialect.statement("DELETE FROM alert_claims WHERE rule_id = \(bind: .text(id))")
        let rule = dialect.statement("DELETE FROM alert_rules WHERE rule_id = \(bind: .text(id)) RETURNING rule_id")
        try await perform(access: .write) { tx in
            guard try !tx.run([claims, rule])[1].isEmpty else {
                throw StoreError(
                    .notFound, "No alert rule has the id '\(id)'; list rules with `decodewatch alerts list`.")
            }
        }
    }

    public func hasDecodeCounts(app: String?, endpoint: String?, environment: String?) async throws -> Bool {
        var sql = SQLBuilder(dialect)
        var filters = ""
        for (column, value) in [("app_id", app), ("endpoint", endpoint), ("environment", environment)] {
            guard let value else { continue }
            filters += " AND \(column) = \(sql.bind(.text(value)))"
        }
        let any = { (table: String) in
            "(SELECT COUNT(*) FROM (SELECT 1 FROM \(table) WHERE count > 0\(filters) LIMIT 1) t)"
        }
        // Decodes are kept per environment only with their version; without a filter, the totals also hold
        // what was reported before versions were kept.
        let tables = environment == nil ? \Rollup.endpointCounts : \Rollup.endpointVersionCounts
        sql.append("SELECT \(any(Rollup.hour[keyPath: tables])) + \(any(Rollup.minute[keyPath: tables])) AS present")
        let statement = sql.statement()
        return try await perform(access: .read) { try ($0.run(statement).first?.integer("present") ?? 0) > 0 }
    }

    public func alertCandidates(windows: [TimeInterval], environment: String?, until: Date, now: Date) async throws
        -> [TimeInterval: [AlertCandidate]]
    {
        guard !windows.isEmpty else { return [:] }
        let starts = windows.map { until.addingTimeInterval(-$0) }
        let index = WindowIndex(
            windows: starts.map { WindowBuckets(since: $0, until: until, now: now) }, environment: environment,
            dialect: dialect)
        let perWindow = try await perform(access: .read) { tx in
            let rows = try tx.run(index.statement)
            var candidates = Array(repeating: [AlertCandidate](), count: windows.count)
            for row in rows {
                let lifecycle = try GroupLifecycle(row)
                let key = (
                    group: try row.text("group_id"), app: try row.text("app_id"), endpoint: try row.text("endpoint"),
                    path: try row.text("path"), kind: ReportKind(rawValue: try row.text("kind")) ?? .other
                )
                for window in windows.indices {
                    let count = try row.count("total\(window)")
                    guard count > 0 else { continue }
                    let decodes = try row.optionalInteger("decodes\(window)") ?? 0
                    candidates[window].append(
                        AlertCandidate(
                            group: key.group, app: key.app, endpoint: key.endpoint, path: key.path, kind: key.kind,
                            count: count, rate: decodes > 0 ? Double(count) / Double(decodes) : nil,
                            firstSeen: lifecycle.firstSeen, status: lifecycle.status(since: starts[window]),
                            resolvedAt: lifecycle.resolvedAt))
                }
            }
            return candidates.map { $0.mostFailuresFirst(count: \.count, group: \.group) }
        }
        // Decisions apply as on the dashboard: a mute silences the group, and a regression by a version that
        // was already out when the group was resolved in the next version does not count.
        let decisions = try await allActionStates(now: now)
        var result: [TimeInterval: [AlertCandidate]] = [:]
        for (window, var candidates) in zip(windows, perWindow) {
            for index in candidates.indices {
                guard let state = decisions[candidates[index].group] else { continue }
                candidates[index].status = state.status(candidates[index].status)
                candidates[index].isMuted = state.isMuted
            }
            result[window] = candidates
        }
        return result
    }

    public func claimAlerts(
        rule: String, groups: [AlertCandidate], token: String, now: Date, cooldown: TimeInterval
    ) async throws -> [String] {
        guard !groups.isEmpty else { return [] }
        // One order for every claimer: PostgreSQL locks the rows in it, so concurrent claims never deadlock.
        let sorted = groups.sorted { $0.group < $1.group }
        let pageSize = 400
        let statements = stride(from: 0, to: sorted.count, by: pageSize).map { start in
            let page = sorted[start..<min(start + pageSize, sorted.count)]
            var sql = SQLBuilder(dialect)
            let (claimToken, alertedAt) = (sql.bind(.text(token)), sql.bind(SQLValue(now)))
            let rows = page.map { candidate in
                let claim = [
                    SQLValue.text(rule), .text(candidate.group), .integer(candidate.resolvedAt?.milliseconds ?? 0),
                ]
                return "(\(claim.map { sql.bind($0) }.joined(separator: ", ")), \(claimToken), \(alertedAt))"
            }
            sql.append(
                """
                INSERT INTO alert_claims (rule_id, group_id, episode, claim_token, alerted_at)
                VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (rule_id, group_id) DO UPDATE
                SET episode = excluded.episode, claim_token = excluded.claim_token, alerted_at = excluded.alerted_at
                WHERE alert_claims.episode <> excluded.episode
                    OR alert_claims.alerted_at <= \(bind: SQLValue(now.addingTimeInterval(-cooldown)))
                RETURNING group_id
                """)
            return sql.statement()
        }
        let claimed = try await perform(access: .write) { tx in
            Set(try tx.run(statements).joined().map { try $0.text("group_id") })
        }
        return groups.map(\.group).filter(claimed.contains)
    }

    public func releaseAlerts(rule: String, token: String) async throws {
        let statement = dialect.statement(
            """
            UPDATE alert_claims SET alerted_at = 0
            WHERE rule_id = \(bind: .text(rule)) AND claim_token = \(bind: .text(token))
            """)
        try await perform(access: .write) { _ = try $0.run(statement) }
    }
}

extension AlertRule {
    /// A rule from its `alert_rules` row.
    fileprivate init(_ row: SQLRecord) throws {
        let condition: AlertCondition
        do { condition = try AlertCondition(parsing: try row.text("fires_when")) } catch {
            throw StoreError.unexpectedValue("fires_when")
        }
        guard let webhook = URL(string: try row.text("webhook")),
            let format = AlertRule.Format(rawValue: try row.text("format"))
        else { throw StoreError.unexpectedValue("webhook") }
        self.init(
            id: try row.text("rule_id"), name: try row.text("name"), app: try row.optionalText("app_id"),
            endpoint: try row.optionalText("endpoint"), kind: try row.optionalText("kind").flatMap(ReportKind.init),
            condition: condition, window: TimeInterval(try row.integer("window_seconds")), webhook: webhook,
            format: format, createdAt: try row.date("created_at"), environment: try row.optionalText("environment"))
    }
}

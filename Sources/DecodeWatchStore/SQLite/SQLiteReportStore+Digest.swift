import DecodeWatchCore
import Foundation
import GRDB

extension SQLiteReportStore: DigestStore {
    public func hourlyCounts(groups: [String], since: Date, until: Date) async throws -> [String: [Int64: Int]] {
        guard !groups.isEmpty else { return [:] }
        let arguments = StatementArguments(groups) + [Hour.index(of: since), Hour.ceilingIndex(of: until)]
        return try await read { db in
            var result: [String: [Int64: Int]] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT group_id, hour, count FROM group_hours
                    WHERE group_id IN (\(databaseQuestionMarks(count: groups.count))) AND hour >= ? AND hour < ?
                    """,
                arguments: arguments)
            while let row = try rows.next() {
                result[row["group_id"], default: [:]][row["hour"]] = row["count"]
            }
            return result
        }
    }

    public func lifecycles(groups: [String]) async throws -> [String: GroupLifecycle] {
        guard !groups.isEmpty else { return [:] }
        return try await read { db in
            var result: [String: GroupLifecycle] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT group_id, state, first_seen, resolved_at, regressed_at, regressed_version FROM groups
                    WHERE group_id IN (\(databaseQuestionMarks(count: groups.count)))
                    """,
                arguments: StatementArguments(groups))
            while let row = try rows.next() {
                result[row["group_id"]] = GroupLifecycle(
                    state: GroupLifecycle.State(rawValue: row["state"]) ?? .open,
                    firstSeen: Date(milliseconds: row["first_seen"]),
                    resolvedAt: (row["resolved_at"] as Int64?).map(Date.init(milliseconds:)),
                    regressedAt: (row["regressed_at"] as Int64?).map(Date.init(milliseconds:)),
                    regressedVersion: row["regressed_version"])
            }
            return result
        }
    }

    public func digestTotals(app: String?, since: Date, until: Date) async throws -> DigestWindowTotals {
        let from = Hour.index(of: since)
        let to = Hour.ceilingIndex(of: until)
        let filter = app == nil ? "" : " AND g.app_id = ?"
        let arguments: StatementArguments = app.map { [from, to, $0] } ?? [from, to]
        return try await read { db in
            let counts = try Row.fetchOne(
                db,
                sql: """
                    SELECT \(StoredCount.sum("h.count")) AS total, COUNT(DISTINCT h.group_id) AS groups,
                           COUNT(DISTINCT g.app_id || ' ' || g.endpoint) AS endpoints
                    FROM group_hours h JOIN groups g ON g.group_id = h.group_id
                    WHERE h.hour >= ? AND h.hour < ?\(filter)
                    """,
                arguments: arguments)
            let installs = try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(DISTINCT i.install_hash)
                    FROM group_hour_installs i JOIN groups g ON g.group_id = i.group_id
                    WHERE i.hour >= ? AND i.hour < ?\(filter)
                    """,
                arguments: arguments)
            return DigestWindowTotals(
                count: counts?["total"] ?? 0, groups: counts?["groups"] ?? 0, installs: installs ?? 0,
                endpoints: counts?["endpoints"] ?? 0)
        }
    }

    public func claimDigestRun(_ key: DigestRunKey, token: String, now: Date, staleAfter: TimeInterval) async throws
        -> DigestClaim
    {
        let keyArguments: StatementArguments = [
            key.period.since.milliseconds, key.period.until.milliseconds, key.destination,
        ]
        let stale = now.addingTimeInterval(-staleAfter).milliseconds
        return try await write { db in
            // Both statements are plain SQL that PostgreSQL runs the same way: the insert wins for
            // exactly one writer, and the conditional update takes the row lock and re-checks it.
            try db.execute(
                sql: """
                    INSERT INTO digest_runs (period_start, period_end, destination, claim_token, claimed_at, attempts)
                    VALUES (?, ?, ?, ?, ?, 1)
                    ON CONFLICT (period_start, period_end, destination) DO NOTHING
                    """,
                arguments: keyArguments + [token, now.milliseconds])
            if db.changesCount > 0 { return .claimed(attempt: 1) }
            try db.execute(
                sql: """
                    UPDATE digest_runs SET claim_token = ?, claimed_at = ?, attempts = attempts + 1
                    WHERE period_start = ? AND period_end = ? AND destination = ?
                      AND delivered_at IS NULL AND (claim_token IS NULL OR claimed_at < ?)
                    """,
                arguments: [token, now.milliseconds] + keyArguments + [stale])
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT claim_token, claimed_at, delivered_at, attempts FROM digest_runs
                    WHERE period_start = ? AND period_end = ? AND destination = ?
                    """,
                arguments: keyArguments)
            guard let row else { throw StoreError(.unavailable, "The digest run record vanished while claiming it.") }
            if let delivered = row["delivered_at"] as Int64? { return .delivered(at: Date(milliseconds: delivered)) }
            if row["claim_token"] as String? == token { return .claimed(attempt: row["attempts"]) }
            return .inProgress(since: Date(milliseconds: row["claimed_at"] as Int64? ?? now.milliseconds))
        }
    }

    public func markDigestDelivered(_ key: DigestRunKey, token: String, at date: Date) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE digest_runs SET delivered_at = ?, claim_token = NULL, last_error = NULL
                    WHERE period_start = ? AND period_end = ? AND destination = ? AND claim_token = ?
                    """,
                arguments: [
                    date.milliseconds, key.period.since.milliseconds, key.period.until.milliseconds,
                    key.destination, token,
                ])
            if db.changesCount > 0 { return true }
            // Taken over after our claim went stale: still record the delivery, once.
            try db.execute(
                sql: """
                    UPDATE digest_runs SET delivered_at = ?
                    WHERE period_start = ? AND period_end = ? AND destination = ? AND delivered_at IS NULL
                    """,
                arguments: [
                    date.milliseconds, key.period.since.milliseconds, key.period.until.milliseconds,
                    key.destination,
                ])
            return false
        }
    }

    public func releaseDigestRun(_ key: DigestRunKey, token: String, error: String, at date: Date) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE digest_runs SET claim_token = NULL, claimed_at = NULL, last_error = ?
                    WHERE period_start = ? AND period_end = ? AND destination = ? AND claim_token = ?
                    """,
                arguments: [
                    String(error.prefix(1000)), key.period.since.milliseconds, key.period.until.milliseconds,
                    key.destination, token,
                ])
        }
    }

    public func digestRun(_ key: DigestRunKey) async throws -> DigestRunRecord? {
        try await read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT claimed_at, delivered_at, attempts, last_error FROM digest_runs
                    WHERE period_start = ? AND period_end = ? AND destination = ?
                    """,
                arguments: [key.period.since.milliseconds, key.period.until.milliseconds, key.destination])
            return row.map { row in
                DigestRunRecord(
                    key: key, claimedAt: (row["claimed_at"] as Int64?).map(Date.init(milliseconds:)),
                    deliveredAt: (row["delivered_at"] as Int64?).map(Date.init(milliseconds:)),
                    attempts: row["attempts"], lastError: row["last_error"])
            }
        }
    }

    public func autoResolve(quietFor: TimeInterval, now: Date) async throws -> [String] {
        let cutoff = now.addingTimeInterval(-quietFor).milliseconds
        return try await write { db in
            let ids = try String.fetchAll(
                db, sql: "SELECT group_id FROM groups WHERE state <> 'resolved' AND last_seen < ? ORDER BY group_id",
                arguments: [cutoff])
            try db.execute(
                sql:
                    "UPDATE groups SET state = 'resolved', resolved_at = ? WHERE state <> 'resolved' AND last_seen < ?",
                arguments: [now.milliseconds, cutoff])
            return ids
        }
    }
}

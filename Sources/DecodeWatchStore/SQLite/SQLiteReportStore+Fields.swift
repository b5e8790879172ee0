import DecodeWatchCore
import Foundation
import GRDB

extension SQLiteReportStore {
    public func fields(_ query: FieldsQuery) async throws -> FieldsSummary {
        try await read { db in try Self.fields(query, in: db) }
    }

    static func fields(_ query: FieldsQuery, in db: Database) throws -> FieldsSummary {
        let from = Hour.index(of: query.since)
        let to = Hour.ceilingIndex(of: query.until)
        var filters = ""
        var arguments: StatementArguments = [from, to]
        if let app = query.app {
            filters += " AND g.app_id = ?"
            arguments += [app]
        }
        if let endpoint = query.endpoint {
            filters += " AND g.endpoint = ?"
            arguments += [endpoint]
        }
        if let kind = query.kind {
            filters += " AND g.kind = ?"
            arguments += [kind.rawValue]
        }
        arguments += [query.limit]
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT g.*, \(StoredCount.sum("h.count")) AS total
                FROM group_hours h JOIN groups g ON g.group_id = h.group_id
                WHERE h.hour >= ? AND h.hour < ?\(filters)
                GROUP BY h.group_id
                ORDER BY total DESC, h.group_id ASC
                LIMIT ?
                """,
            arguments: arguments)
        let ids = rows.map { $0["group_id"] as String }
        guard !ids.isEmpty else { return FieldsSummary(since: query.since, until: query.until, fields: []) }

        let window = WindowFacts(db: db, groups: ids, from: from, to: to)
        let versions = try window.sums(table: "group_hour_versions", column: "version")
        let expected = try window.sums(table: "group_hour_expected", column: "expected")
        let installs = try window.installs()
        let decodes = try window.decodes(apps: Set(rows.map { $0["app_id"] as String }))

        let fields = rows.map { row -> FieldSummary in
            let id: String = row["group_id"]
            let app: String = row["app_id"]
            let endpoint: String = row["endpoint"]
            let count: Int = row["total"]
            let lifecycle = GroupLifecycle(
                state: GroupLifecycle.State(rawValue: row["state"]) ?? .open,
                firstSeen: Date(milliseconds: row["first_seen"]),
                resolvedAt: (row["resolved_at"] as Int64?).map(Date.init(milliseconds:)),
                regressedAt: (row["regressed_at"] as Int64?).map(Date.init(milliseconds:)),
                regressedVersion: row["regressed_version"])
            let denominator = decodes[AppEndpoint(app: app, endpoint: endpoint)] ?? 0
            return FieldSummary(
                group: id, app: app, endpoint: endpoint, path: row["path"],
                kind: ReportKind(rawValue: row["kind"]) ?? .other,
                expected: expected[id].flatMap(Self.mostFrequent),
                count: count, installs: installs[id] ?? 0,
                rate: denominator > 0 ? Double(count) / Double(denominator) : nil,
                firstSeen: lifecycle.firstSeen, lastSeen: Date(milliseconds: row["last_seen"]),
                versions: versions[id] ?? [:], status: lifecycle.status(since: query.since),
                sample: Sample(snippet: row["sample_snippet"], message: row["sample_message"], type: row["sample_type"])
            )
        }
        return FieldsSummary(since: query.since, until: query.until, fields: fields)
    }

    /// The most frequent value; ties go to the alphabetically first, so answers are stable.
    static func mostFrequent(_ counts: [String: Int]) -> String? {
        counts.max { a, b in a.value == b.value ? a.key > b.key : a.value < b.value }?.key
    }
}

/// An app and one of its normalized endpoints.
struct AppEndpoint: Hashable {
    var app: String
    var endpoint: String
}

/// Per-group facts of a window, read for a page of groups at once.
private struct WindowFacts {
    let db: Database
    let groups: [String]
    let from: Int64
    let to: Int64

    private var placeholders: String { databaseQuestionMarks(count: groups.count) }
    private var arguments: StatementArguments { StatementArguments(groups) + [from, to] }

    /// Sums of `count` per group and value of a `group_hour_*` table.
    func sums(table: String, column: String) throws -> [String: [String: Int]] {
        var result: [String: [String: Int]] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT group_id, \(column) AS value, \(StoredCount.sum("count")) AS total FROM \(table)
                WHERE group_id IN (\(placeholders)) AND hour >= ? AND hour < ?
                GROUP BY group_id, \(column)
                """,
            arguments: arguments)
        while let row = try rows.next() {
            result[row["group_id"], default: [:]][row["value"]] = row["total"]
        }
        return result
    }

    /// Distinct installs per group.
    func installs() throws -> [String: Int] {
        var result: [String: Int] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT group_id, COUNT(DISTINCT install_hash) AS installs FROM group_hour_installs
                WHERE group_id IN (\(placeholders)) AND hour >= ? AND hour < ?
                GROUP BY group_id
                """,
            arguments: arguments)
        while let row = try rows.next() { result[row["group_id"]] = row["installs"] }
        return result
    }

    /// Decodes per app and endpoint.
    func decodes(apps: Set<String>) throws -> [AppEndpoint: Int] {
        var result: [AppEndpoint: Int] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT app_id, endpoint, \(StoredCount.sum("count")) AS total FROM endpoint_hours
                WHERE app_id IN (\(databaseQuestionMarks(count: apps.count))) AND hour >= ? AND hour < ?
                GROUP BY app_id, endpoint
                """,
            arguments: StatementArguments(Array(apps)) + [from, to])
        while let row = try rows.next() {
            result[AppEndpoint(app: row["app_id"], endpoint: row["endpoint"])] = row["total"]
        }
        return result
    }
}

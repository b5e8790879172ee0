import DecodeWatchCore
import Foundation

extension SQLStore {
    public func fields(_ query: FieldsQuery) async throws -> FieldsSummary {
        let reader = FieldsReader(query: query, dialect: dialect)
        // The page is chosen from every part's ranking, then read whole with its facts in one transaction.
        let ranked = try await readInSlices(reader.ranking).map { row in
            (group: try row.text("group_id"), count: try row.count("total"))
        }
        let chosen = ranked.mostFailuresFirst(count: \.count, group: \.group).prefix(max(0, query.limit))
        return try await perform(summary(ofGroups: chosen.map(\.group), reader), access: .read)
    }

    public func fields(ofGroups groups: [String], environment: String?, since: Date, until: Date) async throws
        -> [FieldSummary]
    {
        // The window's end decides which of its edges are recent enough to be exact to the minute.
        let reader = FieldsReader(
            query: FieldsQuery(environment: environment, since: since, until: until), dialect: dialect, now: until)
        return try await perform(summary(ofGroups: groups, reader), access: .read).fields
    }

    /// The summary of these groups that failed in the reader's window, most failures first.
    private func summary(ofGroups ids: [String], _ reader: FieldsReader) -> SQLStep<FieldsSummary> {
        let empty = FieldsSummary(since: reader.query.since, until: reader.query.until, fields: [])
        guard !ids.isEmpty else { return .done(empty) }
        return .run(reader.groups(among: ids)) { rows in
            guard !rows.isEmpty else { return .done(empty) }
            return try reader.summary(of: rows)
        }
    }

    /// Runs a statement once per part of the groups (``SQLStore/readSlices`` parts), each in a read transaction
    /// of its own and all at once, and returns every part's rows.
    func readInSlices(_ statement: @escaping @Sendable (GroupSlice) -> SQLStatement) async throws -> [SQLRecord] {
        try await withThrowingTaskGroup(of: [SQLRecord].self) { group in
            for slice in GroupSlice.all(readSlices) {
                group.addTask { try await self.perform(.fetch(statement(slice)) { $0 }, access: .read) }
            }
            var rows: [SQLRecord] = []
            for try await part in group { rows += part }
            return rows
        }
    }
}

/// The statements of the breaking-fields summary (docs/api.md#breaking-fields) and how their rows become one.
///
/// The first statement picks the page of groups from the rollups; the others read the window's
/// versions, expected types, installs, decode counts and install sketches of that page only (and, when
/// sketches lie in the window, the kept install hashes of the sketched groups). Every statement binds the
/// window's buckets (``WindowBuckets``) as parameters 1…6.
struct FieldsReader {
    let query: FieldsQuery
    let dialect: SQLDialect
    /// The window's buckets.
    let window: WindowBuckets

    /// - Parameter now: the time that decides which window edges are recent enough to be exact to the minute.
    init(query: FieldsQuery, dialect: SQLDialect, now: Date = Date()) {
        self.query = query
        self.dialect = dialect
        window = WindowBuckets(since: query.since, until: query.until, now: now)
    }

    /// The window's rows of one kind of rollup, as a subquery.
    func rows(
        of table: KeyPath<Rollup, String>, _ columns: String, where condition: String = "", joining: String = ""
    ) -> String {
        WindowBuckets.rows(of: table, columns: columns, where: condition, joining: joining, dialect: dialect)
    }

    /// The ids and totals of one part of the groups with failures in the window, most failures first, up to
    /// the query's limit: the page is the first of all parts' rankings merged.
    func ranking(_ slice: GroupSlice) -> SQLStatement {
        var arguments = window.arguments
        let totals =
            cellTotals(&arguments, version: query.version, of: slice)
            ?? window.totals(dialect: dialect, slice: slice)
        let filters = self.filters(&arguments)
        arguments.append(.integer(Int64(query.limit)))
        return SQLStatement(
            """
            SELECT g.group_id, h.total
            FROM \(totals) h JOIN groups g ON g.group_seq = h.group_seq
            WHERE 1 = 1\(filters)
            ORDER BY h.total DESC, g.group_id ASC
            LIMIT \(dialect.parameter(arguments.count))
            """,
            arguments)
    }

    /// These groups, if they have failures in the window, most failures first, with their kept sample; their
    /// window sums read their own rollup rows only.
    func groups(among ids: [String]) -> SQLStatement {
        var arguments = window.arguments
        let among = """
             AND group_seq IN (
                SELECT group_seq FROM groups
                WHERE group_id IN (\(dialect.parameters(from: arguments.count + 1, count: ids.count))))
            """
        arguments += ids.map(SQLValue.text)
        let totals =
            cellTotals(&arguments, version: query.version, where: among)
                ?? """
                (SELECT group_seq, \(dialect.cappedSum("count")) AS total
                FROM \(rows(of: \.groupCounts, "group_seq, count", where: among)) c
                GROUP BY group_seq)
                """
        let filters = self.filters(&arguments)
        // With an environment filter, first and last seen are the group's in that environment.
        var (seen, joined) = ("g.first_seen, g.last_seen", "")
        if let environment = query.environment {
            arguments.append(.text(environment))
            seen = "e.first_seen, e.last_seen"
            joined = """
                 JOIN group_environments e
                    ON e.group_seq = g.group_seq AND e.environment = \(dialect.parameter(arguments.count))
                """
        }
        return SQLStatement(
            """
            SELECT g.group_seq, g.group_id, g.app_id, g.endpoint, g.path, g.kind, \(seen),
                   g.sample_snippet, g.sample_message, g.sample_type, g.sample_key_decoding, g.state, g.resolved_at,
                   g.regressed_at, g.regressed_version, h.total
            FROM \(totals) h JOIN groups g ON g.group_seq = h.group_seq\(joined)
            WHERE 1 = 1\(filters)
            ORDER BY h.total DESC, g.group_id ASC
            """,
            arguments)
    }

    /// Every group with failures in the window, in no order, with only what sorting and counting a long list
    /// needs: its total, the decodes of its endpoint (the rate's denominator), when it was last seen and its
    /// lifecycle. Sorting is left to the caller, which sorts a few numbers faster than SQL sorts wide rows.
    /// - Parameters:
    ///   - version: only groups that this app version reported in the window.
    ///   - slice: the part of the groups to list.
    func index(version: String?, slice: GroupSlice) -> SQLStatement {
        var arguments = window.arguments
        let totals =
            cellTotals(&arguments, version: nil, of: slice)
            ?? window.totals(dialect: dialect, slice: slice)
        let decodes = decodeRows(&arguments, version: nil, columns: "app_id, endpoint, count")
        var filters = self.filters(&arguments)
        if let version {
            arguments.append(.text(version))
            filters += """
                 AND g.group_seq IN (
                    SELECT group_seq FROM \(rows(of: \.versions, "group_seq, version")) v
                    WHERE version = \(dialect.parameter(arguments.count)))
                """
        }
        return SQLStatement(
            """
            SELECT g.group_id, g.first_seen, g.last_seen, g.state, g.resolved_at, g.regressed_at,
                   g.regressed_version, h.total, d.total AS decodes
            FROM \(totals) h JOIN groups g ON g.group_seq = h.group_seq
            LEFT JOIN (
                SELECT app_id, endpoint, \(dialect.cappedSum("count")) AS total
                FROM \(decodes) e
                GROUP BY app_id, endpoint
            ) d ON d.app_id = g.app_id AND d.endpoint = g.endpoint
            WHERE 1 = 1\(filters)
            """,
            arguments)
    }

    /// With a version or an environment filter, a subquery of each group's reports of that version and environment
    /// in the window, `group_seq, total`, binding their values after `arguments`; `nil` without either.
    /// - Parameters:
    ///   - version: the version filter to apply, if any.
    ///   - condition: a further condition on the version cells, after `AND`.
    private func cellTotals(_ arguments: inout [SQLValue], version: String?, where condition: String) -> String? {
        guard version != nil || query.environment != nil else { return nil }
        let ofCells = cellFilter(&arguments, version: version) + condition
        return """
            (SELECT group_seq, \(dialect.cappedSum("count")) AS total
            FROM \(rows(of: \.versions, "group_seq, count", where: ofCells)) v
            GROUP BY group_seq HAVING SUM(count) > 0)
            """
    }

    /// ``cellTotals(_:version:where:)`` of every group of a slice: each group's cells are found by its key, `groups`
    /// read in key order, as ``WindowBuckets/totals(dialect:hours:minutes:slice:)`` reads day rows. The cells have
    /// no index by time, and reading the window's cells of every group through the key took half as long as
    /// scanning the table for them over 10 days of 10,000 groups on SQLite, and stays the same as days are kept.
    private func cellTotals(_ arguments: inout [SQLValue], version: String?, of slice: GroupSlice) -> String? {
        guard version != nil || query.environment != nil else { return nil }
        let ofCells =
            " AND r.group_seq = k.group_seq" + cellFilter(&arguments, version: version, prefix: "r.")
            + slice.condition(on: "k.group_seq")
        return """
            (SELECT group_seq, \(dialect.cappedSum("count")) AS total
            FROM \(rows(of: \.versions, "r.group_seq, r.count", where: ofCells, joining: "groups k CROSS JOIN ")) v
            GROUP BY group_seq HAVING SUM(count) > 0)
            """
    }

    /// The conditions, after `AND`, that keep the cells of the query's environment and of `version`, binding their
    /// values after `arguments`; empty without either.
    /// - Parameter prefix: what names the cell table in the condition, e.g. `r.`.
    func cellFilter(_ arguments: inout [SQLValue], version: String?, prefix: String = "") -> String {
        var condition = ""
        for (column, value) in [("environment", query.environment), ("version", version)] {
            guard let value else { continue }
            arguments.append(.text(value))
            condition += " AND \(prefix)\(column) = \(dialect.parameter(arguments.count))"
        }
        return condition
    }

    /// The window's decode counts as a subquery: per version and environment when either filter applies, binding
    /// their values after `arguments`, otherwise from the decode counts of every version.
    /// - Parameters:
    ///   - version: the version filter to apply, if any.
    ///   - columns: the columns to read.
    ///   - condition: a further condition, after `AND`.
    ///   - joining: what each branch reads first (``WindowBuckets/rows(of:columns:where:joining:dialect:)``).
    private func decodeRows(
        _ arguments: inout [SQLValue], version: String?, columns: String, where condition: String = "",
        joining: String = ""
    ) -> String {
        let filter = cellFilter(&arguments, version: version, prefix: "r.")
        let table = filter.isEmpty ? \Rollup.endpointCounts : \.endpointVersionCounts
        return rows(of: table, columns, where: condition + filter, joining: joining)
    }

    /// The query's filters on the `groups` row `g`, binding their values after `arguments`.
    private func filters(_ arguments: inout [SQLValue]) -> String {
        var filters = ""
        for (column, value) in [("app_id", query.app), ("endpoint", query.endpoint), ("kind", query.kind?.rawValue)] {
            guard let value else { continue }
            arguments.append(.text(value))
            filters += " AND g.\(column) = \(dialect.parameter(arguments.count))"
        }
        if let search = query.search {
            // A substring, its `%`, `_` and `\` taken literally, both sides lowered by the database itself so that
            // either store folds them alike; expected types are the window's.
            let escaped = search.reduce(into: "") { text, character in
                if "%_\\".contains(character) { text.append("\\") }
                text.append(character)
            }
            arguments.append(.text("%" + escaped + "%"))
            let like = "LIKE LOWER(\(dialect.parameter(arguments.count))) ESCAPE '\\'"
            filters += """
                 AND (LOWER(g.path) \(like) OR LOWER(g.endpoint) \(like)
                    OR LOWER(COALESCE(g.sample_type, '')) \(like) OR LOWER(COALESCE(g.sample_message, '')) \(like)
                    OR g.group_seq IN (
                        SELECT group_seq FROM \(rows(of: \.expected, "group_seq, expected")) x
                        WHERE LOWER(x.expected) \(like)))
                """
        }
        return filters
    }

    /// Decodes of these endpoints in the window, the denominators of their groups' rates: with a version or an
    /// environment filter, that version's and environment's decodes only.
    ///
    /// Only the page's endpoints are summed, each endpoint's rows found by its key: all endpoints of the page's
    /// apps took twice as long, most of it sorting rows no rate needs, and the window's rows of every endpoint
    /// checked against the page's list 4–5 ms where the lookups take 1 ms over 10 million reports.
    func decodes(of endpoints: [AppEndpoint]) -> SQLStatement {
        let pairs = endpoints.indices.map { "(\(dialect.parameter(7 + 2 * $0)), \(dialect.parameter(8 + 2 * $0)))" }
        let page = "(VALUES \(pairs.joined(separator: ", "))) p CROSS JOIN "
        let keyed = " AND r.app_id = p.column1 AND r.endpoint = p.column2"
        var arguments = window.arguments + endpoints.flatMap { [SQLValue.text($0.app), .text($0.endpoint)] }
        let decodes = decodeRows(
            &arguments, version: query.version, columns: "r.app_id, r.endpoint, r.count", where: keyed, joining: page)
        return SQLStatement(
            """
            SELECT app_id, endpoint, \(dialect.cappedSum("count")) AS total
            FROM \(decodes) e
            GROUP BY app_id, endpoint
            """,
            arguments)
    }

    /// The statements reading what the summary says about a page of groups.
    /// - Parameter groups: the rows of ``groups``.
    func facts(of groups: [SQLRecord]) throws -> WindowFacts {
        let seqs = try groups.map { try $0.integer("group_seq") }
        let endpoints = Set(
            try groups.map { AppEndpoint(app: try $0.text("app_id"), endpoint: try $0.text("endpoint")) }
        )
        .sorted { ($0.app, $0.endpoint) < ($1.app, $1.endpoint) }
        let pageOf = "group_seq IN (\(dialect.parameters(from: 7, count: seqs.count)))"
        let page = window.arguments + seqs.map(SQLValue.integer)
        // The versions, installs and sketches of the query's environment (and version) only.
        var (cells, ofCells) = (page, "")
        ofCells = cellFilter(&cells, version: query.version)
        var (environmentCells, ofEnvironment) = (page, "")
        ofEnvironment = cellFilter(&environmentCells, version: nil)
        func sums(_ table: KeyPath<Rollup, String>, _ column: String, filtered: Bool) -> SQLStatement {
            SQLStatement(
                """
                SELECT group_seq, \(column) AS value, \(dialect.cappedSum("count")) AS total
                FROM \(rows(of: table, "group_seq, \(column), count\(filtered ? ", environment" : "")")) r
                WHERE \(pageOf)\(filtered ? ofCells : "")
                GROUP BY group_seq, \(column)
                """,
                filtered ? cells : page)
        }
        return WindowFacts(
            query: query, groups: groups,
            statements: [
                // With a version or an environment filter, the entry counts their reports only.
                sums(\.versions, "version", filtered: true),
                // Expected types are the group's in every environment: they describe the app's model.
                sums(\.expected, "expected", filtered: false),
                SQLStatement(
                    """
                    SELECT group_seq, COUNT(DISTINCT install_hash) AS installs
                    FROM \(rows(of: \.installs, "group_seq, install_hash, environment")) r
                    WHERE \(pageOf)\(ofEnvironment)
                    GROUP BY group_seq
                    """,
                    environmentCells),
                decodes(of: endpoints),
                SQLStatement(
                    """
                    SELECT group_seq, sketch FROM \(rows(of: \.installSketches, "group_seq, sketch, environment")) r
                    WHERE \(pageOf)\(ofEnvironment)
                    """,
                    environmentCells),
            ])
    }
}

/// Per-group facts of a window for a page of groups, and the summary they make.
struct WindowFacts {
    let query: FieldsQuery
    let groups: [SQLRecord]
    /// Versions, expected types, exact installs, decodes and install sketches, in this order.
    let statements: [SQLStatement]

    /// The summary, from the rows of ``statements``.
    /// - Parameter installs: distinct installs per `group_seq` (``FieldsReader/summary(of:)``).
    func summary(_ results: [[SQLRecord]], installs: [Int64: Int]) throws -> FieldsSummary {
        let versions = try Self.sums(results[0])
        let expected = try Self.sums(results[1])
        var decodes: [AppEndpoint: Int] = [:]
        for row in results[3] {
            decodes[AppEndpoint(app: try row.text("app_id"), endpoint: try row.text("endpoint"))] = try row.count(
                "total")
        }
        let fields = try groups.map { row -> FieldSummary in
            let id = try row.text("group_id")
            let seq = try row.integer("group_seq")
            let app = try row.text("app_id")
            let endpoint = try row.text("endpoint")
            let count = try row.count("total")
            let lifecycle = try GroupLifecycle(row)
            let denominator = decodes[AppEndpoint(app: app, endpoint: endpoint)] ?? 0
            return FieldSummary(
                group: id, app: app, endpoint: endpoint, path: try row.text("path"),
                kind: ReportKind(rawValue: try row.text("kind")) ?? .other,
                expected: expected[seq].flatMap(Self.mostFrequent),
                count: count, installs: installs[seq] ?? 0,
                rate: denominator > 0 ? Double(count) / Double(denominator) : nil,
                firstSeen: lifecycle.firstSeen, lastSeen: try row.date("last_seen"),
                versions: versions[seq] ?? [:], status: lifecycle.status(since: query.since),
                sample: try Sample(row))
        }
        return FieldsSummary(since: query.since, until: query.until, fields: fields)
    }

    /// Sums per group and value, from rows of `group_seq, value, total`.
    private static func sums(_ rows: [SQLRecord]) throws -> [Int64: [String: Int]] {
        var result: [Int64: [String: Int]] = [:]
        for row in rows {
            result[try row.integer("group_seq"), default: [:]][try row.text("value")] = try row.count("total")
        }
        return result
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

extension Sample {
    /// The `sample_*` columns of a `groups` row.
    init(_ row: SQLRecord) throws {
        self.init(
            snippet: try row.optionalText("sample_snippet"), message: try row.optionalText("sample_message"),
            type: try row.optionalText("sample_type"),
            keyDecoding: try row.optionalText("sample_key_decoding").flatMap(KeyDecoding.init(rawValue:)))
    }
}

extension GroupLifecycle {
    /// The lifecycle columns of a `groups` row.
    init(_ row: SQLRecord) throws {
        self.init(
            state: GroupLifecycle.State(rawValue: try row.text("state")) ?? .open,
            firstSeen: try row.date("first_seen"), resolvedAt: try row.optionalDate("resolved_at"),
            regressedAt: try row.optionalDate("regressed_at"),
            regressedVersion: try row.optionalText("regressed_version"))
    }
}

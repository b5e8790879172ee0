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
        let ids = chosen.map(\.group)
        return try await perform(access: .read) { try self.summary(ofGroups: ids, reader, in: $0) }
    }

    public func fields(ofGroups groups: [String], environment: String?, since: Date, until: Date) async throws
        -> [FieldSummary]
    {
        // The window's end decides which of its edges are recent enough to be exact to the minute.
        let reader = FieldsReader(
            query: FieldsQuery(environment: environment, since: since, until: until), dialect: dialect, now: until)
        return try await perform(access: .read) { try self.summary(ofGroups: groups, reader, in: $0) }.fields
    }

    /// The summary of these groups that failed in the reader's window, most failures first.
    private func summary(ofGroups ids: [String], _ reader: FieldsReader, in tx: any SQLTransaction) throws
        -> FieldsSummary
    {
        let empty = FieldsSummary(since: reader.query.since, until: reader.query.until, fields: [])
        guard !ids.isEmpty else { return empty }
        let rows = try tx.run(reader.groups(among: ids))
        guard !rows.isEmpty else { return empty }
        return try reader.summary(of: rows, in: tx)
    }

    /// Runs a statement once per part of the groups (``SQLStore/readSlices`` parts), each in a read transaction
    /// of its own and all at once, and returns every part's rows.
    func readInSlices(_ statement: @escaping @Sendable (GroupSlice) -> SQLStatement) async throws -> [SQLRecord] {
        try await withThrowingTaskGroup(of: [SQLRecord].self) { group in
            for slice in GroupSlice.all(readSlices) {
                group.addTask {
                    let ofSlice = statement(slice)
                    return try await self.perform(access: .read) { try $0.run(ofSlice) }
                }
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
/// window's buckets (``WindowBuckets``) first.
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

    /// A statement reading the window: `build` appends its text and binds its values, after the window's bounds.
    func statement(_ build: (inout SQLBuilder, WindowBuckets.Bounds) -> Void) -> SQLStatement {
        var sql = SQLBuilder(dialect)
        let bounds = window.bind(into: &sql)
        build(&sql, bounds)
        return sql.statement()
    }

    /// The ids and totals of one part of the groups with failures in the window, most failures first, up to
    /// the query's limit: the page is the first of all parts' rankings merged.
    func ranking(_ slice: GroupSlice) -> SQLStatement {
        statement { sql, bounds in
            let totals =
                cellTotals(&sql, bounds, version: query.version, of: slice) ?? window.totals(bounds, slice: slice)
            let filters = self.filters(&sql, bounds)
            sql.append(
                """
                SELECT g.group_id, h.total
                FROM \(totals) h JOIN groups g ON g.group_seq = h.group_seq
                WHERE 1 = 1\(filters)
                ORDER BY h.total DESC, g.group_id ASC
                LIMIT \(bind: .integer(Int64(query.limit)))
                """)
        }
    }

    /// These groups, if they have failures in the window, most failures first, with their kept sample; their
    /// window sums read their own rollup rows only.
    func groups(among ids: [String]) -> SQLStatement {
        statement { sql, bounds in
            let among = """
                 AND group_seq IN (
                    SELECT group_seq FROM groups
                    WHERE group_id IN (\(ids.map { sql.bind(.text($0)) }.joined(separator: ", "))))
                """
            let totals =
                cellTotals(&sql, bounds, version: query.version, where: among)
                    ?? """
                    (SELECT group_seq, \(dialect.cappedSum("count")) AS total
                    FROM \(bounds.rows(of: \.groupCounts, columns: "group_seq, count", where: among)) c
                    GROUP BY group_seq)
                    """
            let filters = self.filters(&sql, bounds)
            // With an environment filter, first and last seen are the group's in that environment.
            var (seen, joined) = ("g.first_seen, g.last_seen", "")
            if let environment = query.environment {
                seen = "e.first_seen, e.last_seen"
                joined = """
                     JOIN group_environments e
                        ON e.group_seq = g.group_seq AND e.environment = \(sql.bind(.text(environment)))
                    """
            }
            sql.append(
                """
                SELECT g.group_seq, g.group_id, g.app_id, g.endpoint, g.path, g.kind, \(seen),
                       g.sample_snippet, g.sample_message, g.sample_type, g.sample_key_decoding, g.state, g.resolved_at,
                       g.regressed_at, g.regressed_version, h.total
                FROM \(totals) h JOIN groups g ON g.group_seq = h.group_seq\(joined)
                WHERE 1 = 1\(filters)
                ORDER BY h.total DESC, g.group_id ASC
                """)
        }
    }

    /// Every group with failures in the window, in no order, with only what sorting and counting a long list
    /// needs: its total, the decodes of its endpoint (the rate's denominator), when it was last seen and its
    /// lifecycle. Sorting is left to the caller, which sorts a few numbers faster than SQL sorts wide rows.
    /// - Parameters:
    ///   - version: only groups that this app version reported in the window.
    ///   - slice: the part of the groups to list.
    func index(version: String?, slice: GroupSlice) -> SQLStatement {
        statement { sql, bounds in
            let totals = cellTotals(&sql, bounds, version: nil, of: slice) ?? window.totals(bounds, slice: slice)
            let decodes = decodeRows(&sql, bounds, version: nil, columns: "app_id, endpoint, count")
            var filters = self.filters(&sql, bounds)
            if let version {
                filters += """
                     AND g.group_seq IN (
                        SELECT group_seq FROM \(bounds.rows(of: \.versions, columns: "group_seq, version")) v
                        WHERE version = \(sql.bind(.text(version))))
                    """
            }
            sql.append(
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
                """)
        }
    }

    /// With a version or an environment filter, a subquery of each group's reports of that version and environment
    /// in the window, `group_seq, total`, binding their values; `nil` without either.
    /// - Parameters:
    ///   - version: the version filter to apply, if any.
    ///   - condition: a further condition on the version cells, after `AND`.
    private func cellTotals(
        _ sql: inout SQLBuilder, _ bounds: WindowBuckets.Bounds, version: String?, where condition: String
    ) -> String? {
        guard version != nil || query.environment != nil else { return nil }
        let ofCells = cellFilter(&sql, version: version) + condition
        return """
            (SELECT group_seq, \(dialect.cappedSum("count")) AS total
            FROM \(bounds.rows(of: \.versions, columns: "group_seq, count", where: ofCells)) v
            GROUP BY group_seq HAVING SUM(count) > 0)
            """
    }

    /// ``cellTotals(_:_:version:where:)`` of every group of a slice: each group's cells are found by its key, `groups`
    /// read in key order, as ``WindowBuckets/Bounds/totals(hours:minutes:slice:)`` reads day rows. The cells have
    /// no index by time, and reading the window's cells of every group through the key took half as long as
    /// scanning the table for them over 10 days of 10,000 groups on SQLite, and stays the same as days are kept.
    private func cellTotals(
        _ sql: inout SQLBuilder, _ bounds: WindowBuckets.Bounds, version: String?, of slice: GroupSlice
    ) -> String? {
        guard version != nil || query.environment != nil else { return nil }
        let ofCells =
            " AND r.group_seq = k.group_seq" + cellFilter(&sql, version: version, prefix: "r.")
            + slice.condition(on: "k.group_seq")
        let cells = bounds.rows(
            of: \.versions, columns: "r.group_seq, r.count", where: ofCells, joining: "groups k CROSS JOIN ")
        return """
            (SELECT group_seq, \(dialect.cappedSum("count")) AS total
            FROM \(cells) v
            GROUP BY group_seq HAVING SUM(count) > 0)
            """
    }

    /// The conditions, after `AND`, that keep the cells of the query's environment and of `version`, binding their
    /// values; empty without either.
    /// - Parameter prefix: what names the cell table in the condition, e.g. `r.`.
    func cellFilter(_ sql: inout SQLBuilder, version: String?, prefix: String = "") -> String {
        var condition = ""
        for (column, value) in [("environment", query.environment), ("version", version)] {
            guard let value else { continue }
            condition += " AND \(prefix)\(column) = \(sql.bind(.text(value)))"
        }
        return condition
    }

    /// The window's decode counts as a subquery: per version and environment when either filter applies, binding
    /// their values, otherwise from the decode counts of every version.
    /// - Parameters:
    ///   - version: the version filter to apply, if any.
    ///   - columns: the columns to read.
    ///   - condition: a further condition, after `AND`.
    ///   - joining: what each branch reads first (``WindowBuckets/Bounds/rows(of:columns:where:joining:)``).
    private func decodeRows(
        _ sql: inout SQLBuilder, _ bounds: WindowBuckets.Bounds, version: String?, columns: String,
        where condition: String = "", joining: String = ""
    ) -> String {
        let filter = cellFilter(&sql, version: version, prefix: "r.")
        let table = filter.isEmpty ? \Rollup.endpointCounts : \.endpointVersionCounts
        return bounds.rows(of: table, columns: columns, where: condition + filter, joining: joining)
    }

    /// The query's filters on the `groups` row `g`, binding their values.
    private func filters(_ sql: inout SQLBuilder, _ bounds: WindowBuckets.Bounds) -> String {
        var filters = ""
        for (column, value) in [("app_id", query.app), ("endpoint", query.endpoint), ("kind", query.kind?.rawValue)] {
            guard let value else { continue }
            filters += " AND g.\(column) = \(sql.bind(.text(value)))"
        }
        if let search = query.search {
            // A substring, its `%`, `_` and `\` taken literally, both sides lowered by the database itself so that
            // either store folds them alike; expected types are the window's.
            let escaped = search.reduce(into: "") { text, character in
                if "%_\\".contains(character) { text.append("\\") }
                text.append(character)
            }
            let like = "LIKE LOWER(\(sql.bind(.text("%" + escaped + "%")))) ESCAPE '\\'"
            filters += """
                 AND (LOWER(g.path) \(like) OR LOWER(g.endpoint) \(like)
                    OR LOWER(COALESCE(g.sample_type, '')) \(like) OR LOWER(COALESCE(g.sample_message, '')) \(like)
                    OR g.group_seq IN (
                        SELECT group_seq FROM \(bounds.rows(of: \.expected, columns: "group_seq, expected")) x
                        WHERE LOWER(x.expected) \(like)))
                """
        }
        return filters
    }

    /// Decodes of these endpoints in the window, the denominators of their groups' rates: with a version or an
    /// environment filter, that version's and environment's decodes only.
    ///
    /// Only the page's endpoints are summed, each endpoint's rows found by its key: all endpoints of the page's
    /// apps cost more, most of it sorting rows no rate needs, and so did checking the window's rows of every endpoint
    /// against the page's list, where the lookups read only the page's rows.
    func decodes(of endpoints: [AppEndpoint]) -> SQLStatement {
        statement { sql, bounds in
            let pairs = endpoints.map { "(\(sql.bind(.text($0.app))), \(sql.bind(.text($0.endpoint))))" }
            let page = "(VALUES \(pairs.joined(separator: ", "))) p CROSS JOIN "
            let keyed = " AND r.app_id = p.column1 AND r.endpoint = p.column2"
            let decodes = decodeRows(
                &sql, bounds, version: query.version, columns: "r.app_id, r.endpoint, r.count", where: keyed,
                joining: page)
            sql.append(
                """
                SELECT app_id, endpoint, \(dialect.cappedSum("count")) AS total
                FROM \(decodes) e
                GROUP BY app_id, endpoint
                """)
        }
    }

    /// A statement of the window reading a page of groups: `build` appends its text from the condition, after
    /// `WHERE`, that keeps the page's rows, and binds any further values.
    /// - Parameter seqs: the page's `group_seq`.
    private func statement(
        ofPage seqs: [Int64], _ build: (inout SQLBuilder, WindowBuckets.Bounds, _ page: String) -> Void
    ) -> SQLStatement {
        statement { sql, bounds in
            let page = "group_seq IN (\(seqs.map { sql.bind(.integer($0)) }.joined(separator: ", ")))"
            build(&sql, bounds, page)
        }
    }

    /// The page's window rows of a table kept per environment, in the query's environment.
    /// - Parameters:
    ///   - select: what to select from the rows, `r`.
    ///   - columns: the columns of the table to read.
    ///   - seqs: the page's `group_seq`.
    ///   - then: what follows the condition, such as `GROUP BY`.
    func inEnvironment(
        _ select: String, from table: KeyPath<Rollup, String>, columns: String, ofPage seqs: [Int64],
        then: String = ""
    ) -> SQLStatement {
        statement(ofPage: seqs) { sql, bounds, page in
            let ofEnvironment = cellFilter(&sql, version: nil)
            sql.append(
                """
                SELECT \(select) FROM \(bounds.rows(of: table, columns: columns)) r
                WHERE \(page)\(ofEnvironment)\(then)
                """)
        }
    }

    /// The statements reading what the summary says about a page of groups.
    /// - Parameter groups: the rows of ``groups``.
    func facts(of groups: [SQLRecord]) throws -> WindowFacts {
        let seqs = try groups.map { try $0.integer("group_seq") }
        let endpoints = Set(
            try groups.map { AppEndpoint(app: try $0.text("app_id"), endpoint: try $0.text("endpoint")) }
        )
        .sorted { ($0.app, $0.endpoint) < ($1.app, $1.endpoint) }
        // The versions, installs and sketches of the query's environment (and version) only.
        func sums(_ table: KeyPath<Rollup, String>, _ column: String, filtered: Bool) -> SQLStatement {
            statement(ofPage: seqs) { sql, bounds, page in
                let ofCells = filtered ? cellFilter(&sql, version: query.version) : ""
                let columns = "group_seq, \(column), count\(filtered ? ", environment" : "")"
                sql.append(
                    """
                    SELECT group_seq, \(column) AS value, \(dialect.cappedSum("count")) AS total
                    FROM \(bounds.rows(of: table, columns: columns)) r
                    WHERE \(page)\(ofCells)
                    GROUP BY group_seq, \(column)
                    """)
            }
        }
        return WindowFacts(
            query: query, groups: groups,
            statements: [
                // With a version or an environment filter, the entry counts their reports only.
                sums(\.versions, "version", filtered: true),
                // Expected types are the group's in every environment: they describe the app's model.
                sums(\.expected, "expected", filtered: false),
                inEnvironment(
                    "group_seq, COUNT(DISTINCT install_hash) AS installs", from: \.installs,
                    columns: "group_seq, install_hash, environment", ofPage: seqs, then: "\nGROUP BY group_seq"),
                decodes(of: endpoints),
                inEnvironment(
                    "group_seq, sketch", from: \.installSketches, columns: "group_seq, sketch, environment",
                    ofPage: seqs),
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

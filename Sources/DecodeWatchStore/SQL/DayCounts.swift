/// Report counts per group and UTC day, one column per hour of the day (`h0` … `h23`): the counts of the
/// hourly cells again, laid out so that a window's whole hours are one or two rows per group and day.
///
/// Ranking every group by its failures in a window is most of a summary's time, and most of that was
/// stepping through each group's hourly rows (23 of them for a day's window); a day row sums the same hours
/// from one row, its columns chosen when the statement is built. The rows are written in the same
/// transaction as the hourly cells, so both always agree; only counts are kept here, everything else a window
/// says about a group comes from the cells of the groups it shows.
package enum DayCounts {
    package static let table = "group_days"

    /// The hour-of-day columns, in order.
    static let hourColumns = (0..<24).map { "h\($0)" }

    /// The table, keyed like the cell tables by `group_seq`.
    package static func create(in dialect: SQLDialect) -> String {
        let integer = dialect == .sqlite ? "INTEGER" : "BIGINT"
        let hours = hourColumns.map { "\($0) \(integer) NOT NULL DEFAULT 0" }.joined(separator: ", ")
        return """
            CREATE TABLE \(table) (
                group_seq \(integer) NOT NULL, day \(integer) NOT NULL, \(hours),
                PRIMARY KEY (group_seq, day)
            )\(dialect == .sqlite ? " WITHOUT ROWID" : "")
            """
    }

    /// Fills the table from the hourly cells, for a database written before it existed.
    package static var backfill: String {
        let sums = (0..<24).map { "SUM(CASE WHEN hour % 24 = \($0) THEN count ELSE 0 END)" }
        return """
            INSERT INTO \(table) (group_seq, day, \(hourColumns.joined(separator: ", ")))
            SELECT group_seq, hour / 24, \(sums.joined(separator: ", "))
            FROM \(Rollup.hour.groupCounts) GROUP BY group_seq, hour / 24
            """
    }

    /// Upserts adding a commit's hourly counts to their days.
    ///
    /// A commit's reports nearly always fall in one hour: its rows then bind that hour's column only, which
    /// costs half of binding and adding all 24. Otherwise every column is written. Either way the rows go in
    /// the order given, one per group and day, so writers lock them in one order; and there are at most 25
    /// statement texts per size to keep prepared.
    /// - Parameter counts: each hourly cell's count, sorted by group (in the commit's lock order) and hour.
    static func add(_ counts: [(group: Int64, hour: Int64, count: Int)], dialect: SQLDialect) -> [SQLStatement] {
        guard let first = counts.first else { return [] }
        let oneHour = counts.allSatisfy { $0.hour % 24 == first.hour % 24 }
        let columns = oneHour ? [hourColumns[Int(first.hour % 24)]] : hourColumns
        var rows: [[SQLValue]] = []
        var last: (group: Int64, day: Int64)?
        for cell in counts {
            let day = cell.hour / 24
            if last.map({ $0 != (cell.group, day) }) ?? true {
                rows.append(
                    [.integer(cell.group), .integer(day)] + Array(repeating: .integer(0), count: columns.count))
                last = (cell.group, day)
            }
            rows[rows.count - 1][oneHour ? 2 : 2 + Int(cell.hour % 24)] = .integer(StoredCount.clamp(cell.count))
        }
        return IngestStatements.add(
            into: table, columns: ["group_seq", "day"], counts: columns, rows: rows, dialect: dialect)
    }

    /// The expression adding up a day row's counts of the whole hours `[hours.from, hours.to)`; `0` for no
    /// hours. The columns are written into the statement, so its text depends on the window.
    /// - Parameter row: the day row's alias.
    static func sum(ofHours hours: (from: Int64, to: Int64), in row: String) -> String {
        // No report is older than 1970, hour 0.
        let (from, to) = (max(0, hours.from), hours.to)
        guard from < to else { return "0" }
        let (first, last) = (from / 24, (to - 1) / 24)
        let (start, end) = (Int(from % 24), Int((to - 1) % 24))
        func columns(_ range: ClosedRange<Int>) -> String {
            range.map { "\(row).\(hourColumns[$0])" }.joined(separator: " + ")
        }
        if first == last { return columns(start...end) }
        return """
            CASE \(row).day WHEN \(first) THEN \(columns(start...23)) WHEN \(last) THEN \(columns(0...end)) \
            ELSE \(columns(0...23)) END
            """
    }

    /// The statements of one retention step: whole days before the horizon's day are deleted, and in its day
    /// the hours before the horizon set to 0, so the rows keep agreeing with the hourly cells retention deletes.
    /// Each returns a row per row it changed, at most `limit` of them.
    /// - Parameter hour: the horizon's hour index: the first hour kept.
    static func expire(before hour: Int64, limit: Int, dialect: SQLDialect) -> [SQLStatement] {
        let (first, cap) = (dialect.parameter(1), dialect.parameter(2))
        let hour = max(0, hour)
        let arguments: [SQLValue] = [.integer(hour / 24), .integer(Int64(limit))]
        let delete = SQLStatement(
            """
            DELETE FROM \(table) WHERE (group_seq, day) IN (
                SELECT group_seq, day FROM \(table) WHERE day < \(first) ORDER BY day, group_seq LIMIT \(cap)
            ) RETURNING 1 AS deleted
            """, arguments)
        let cleared = hourColumns.prefix(Int(hour % 24))
        guard !cleared.isEmpty else { return [delete] }
        let clear = SQLStatement(
            """
            UPDATE \(table) SET \(cleared.map { "\($0) = 0" }.joined(separator: ", ")) WHERE (group_seq, day) IN (
                SELECT group_seq, day FROM \(table)
                WHERE day = \(first) AND (\(cleared.map { "\($0) <> 0" }.joined(separator: " OR ")))
                ORDER BY group_seq LIMIT \(cap)
            ) RETURNING 1 AS deleted
            """, arguments)
        return [delete, clear]
    }
}

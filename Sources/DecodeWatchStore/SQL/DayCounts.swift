import DecodeWatchCore

/// Report counts per group and UTC day as running totals: column `hK` holds the reports of hours 0 through K
/// of the day, so `h23` is the whole day's. They are the counts of the hourly cells again, laid out so that a
/// window's whole hours are one or two rows per group and day, and any run of a day's hours two columns.
///
/// Ranking every group by its failures in a window is most of a summary's time, and most of that was
/// stepping through each group's hourly rows (23 of them for a day's window); a day row sums the same hours
/// from one row, its columns chosen when the statement is built. Adding up a run of hour columns instead of
/// subtracting two running totals cost a third of that step again (23 columns read per group for a day's
/// window). The rows are written in the same transaction as the hourly cells, so both always agree; only
/// counts are kept here, everything else a window says about a group comes from the cells of the groups it
/// shows. A running total saturates at ``maxTotal``, the most a day's 24 cells hold.
package enum DayCounts {
    package static let table = "group_days"

    /// The largest running total: 24 full cells.
    static let maxTotal = 24 * StoredCount.max

    /// The running-total columns, by the last hour of the day each counts.
    static let hourColumns = (0..<24).map { "h\($0)" }

    /// The table, keyed like the cell tables by `group_seq`.
    static let createTable = SchemaStep.createTable(
        table,
        [.integer("group_seq"), .integer("day")] + hourColumns.map { SchemaColumn.integer($0, .defaulting("0")) },
        primaryKey: ["group_seq", "day"], withoutRowID: true)

    /// Fills the table from the hourly cells, for a database written before it existed or before its
    /// columns were running totals.
    package static func backfill(in dialect: SQLDialect) -> String {
        let totals = (0..<24).map {
            dialect.least("SUM(CASE WHEN hour % 24 <= \($0) THEN count ELSE 0 END)", String(maxTotal))
        }
        return """
            INSERT INTO \(table) (group_seq, day, \(hourColumns.joined(separator: ", ")))
            SELECT group_seq, hour / 24, \(totals.joined(separator: ", "))
            FROM \(Rollup.hour.groupCounts) GROUP BY group_seq, hour / 24
            """
    }

    /// Upserts adding a commit's hourly counts to their days.
    ///
    /// A commit's reports nearly always fall in one hour, K: its rows then bind and add the columns from K
    /// on only, all with the same count. Otherwise every column is written. Either way the rows go in the
    /// order given, one per group and day, so writers lock them in one order; and there are at most 25
    /// statement texts per size to keep prepared.
    /// - Parameter counts: each hourly cell's count, sorted by group (in the commit's lock order) and hour.
    static func add(_ counts: [(group: Int64, hour: Int64, count: Int)], dialect: SQLDialect) -> [SQLStatement] {
        guard let first = counts.first else { return [] }
        let oneHour = counts.allSatisfy { $0.hour % 24 == first.hour % 24 }
        let columns = oneHour ? Array(hourColumns[Int(first.hour % 24)...]) : hourColumns
        var rows: [[SQLValue]] = []
        var totals: [Int] = []
        var last: (group: Int64, day: Int64)?
        func flush() {
            guard let last else { return }
            rows.append([.integer(last.group), .integer(last.day)] + totals.map { .integer(min(Int64($0), maxTotal)) })
        }
        for cell in counts {
            let day = cell.hour / 24
            if last.map({ $0 != (cell.group, day) }) ?? true {
                flush()
                totals = Array(repeating: 0, count: columns.count)
                last = (cell.group, day)
            }
            // Every column from the cell's hour on counts it.
            let from = oneHour ? 0 : Int(cell.hour % 24)
            for column in from..<columns.count { totals[column] = totals[column].addingSaturating(cell.count) }
        }
        flush()
        return IngestStatements.add(
            into: table, columns: ["group_seq", "day"], counts: columns, rows: rows, cap: maxTotal, dialect: dialect)
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
        /// The day's hours `start...end`: the running total at `end` less the one before `start`.
        func run(_ start: Int, _ end: Int) -> String {
            let through = "\(row).\(hourColumns[end])"
            return start == 0 ? through : "\(through) - \(row).\(hourColumns[start - 1])"
        }
        if first == last { return run(start, end) }
        return """
            CASE \(row).day WHEN \(first) THEN \(run(start, 23)) WHEN \(last) THEN \(run(0, end)) \
            ELSE \(run(0, 23)) END
            """
    }

    /// The statements of one retention step: whole days before the horizon's day are deleted, and in its day
    /// the hours before the horizon taken out of the running totals, so the rows keep agreeing with the hourly
    /// cells retention deletes. Each returns a row per row it changed, at most `limit` of them.
    /// - Parameter hour: the horizon's hour index: the first hour kept.
    static func expire(before hour: Int64, limit: Int, dialect: SQLDialect) -> [SQLStatement] {
        let hour = max(0, hour)
        var sql = SQLBuilder(dialect)
        let (first, cap) = (sql.bind(.integer(hour / 24)), sql.bind(.integer(Int64(limit))))
        let delete = sql.statement(
            appending: """
                DELETE FROM \(table) WHERE (group_seq, day) IN (
                    SELECT group_seq, day FROM \(table) WHERE day < \(first) ORDER BY day, group_seq LIMIT \(cap)
                ) RETURNING 1 AS deleted
                """)
        let kept = Int(hour % 24)
        guard kept > 0 else { return [delete] }
        // The total through the last hour dropped is what every later total holds of the dropped hours. Every
        // assignment reads the row as it was.
        let dropped = hourColumns[kept - 1]
        let assignments =
            hourColumns[..<kept].map { "\($0) = 0" } + hourColumns[kept...].map { "\($0) = \($0) - \(dropped)" }
        let clear = sql.statement(
            appending: """
                UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE (group_seq, day) IN (
                    SELECT group_seq, day FROM \(table) WHERE day = \(first) AND \(dropped) <> 0
                    ORDER BY group_seq LIMIT \(cap)
                ) RETURNING 1 AS deleted
                """)
        return [delete, clear]
    }
}

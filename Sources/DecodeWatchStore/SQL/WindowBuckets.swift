import DecodeWatchCore
import Foundation

/// The rollup buckets that make up a window `[since, until)` (docs/api.md#windows): the whole hours inside it from the
/// hourly rollups, and the minutes of the partial hours at its edges from the minute rollups.
///
/// Minutes are kept for ``Minute/kept``: an edge older than that widens to the whole hour it falls in,
/// which is the coarser resolution docs/choices.md states for old data.
struct WindowBuckets {
    /// The first and the first excluded hour index read from the hourly rollups.
    let hours: (from: Int64, to: Int64)
    /// Two ranges of minute indexes (first, first excluded) read from the minute rollups; either may be empty.
    let minutes: [(from: Int64, to: Int64)]

    init(since: Date, until: Date, now: Date) {
        let oldest = Minute.index(of: now.addingTimeInterval(-Minute.kept))
        let first = Minute.index(of: since)
        let end = Minute.ceilingIndex(of: until)
        let exactStart = first >= oldest
        // With an exact start every later minute is kept too, so the end is exact as well.
        let exactEnd = exactStart || Minute.hour(of: end) * 60 >= oldest
        let startHour = exactStart ? Minute.hour(of: first + 59) : Minute.hour(of: first)
        let endHour = exactEnd ? Minute.hour(of: end) : Minute.hour(of: end + 59)
        if startHour <= endHour {
            hours = (startHour, endHour)
            minutes = [
                exactStart ? (first, startHour * 60) : (0, 0),
                exactEnd ? (endHour * 60, end) : (0, 0),
            ]
        } else {
            // Both edges inside one hour (so both recent): minutes only.
            hours = (0, 0)
            minutes = [(first, end), (0, 0)]
        }
    }

    /// Binds the window's six bounds, which the subqueries of the returned ``Bounds`` read (several times over).
    func bind(into sql: inout SQLBuilder) -> Bounds {
        func bind(_ range: (from: Int64, to: Int64)) -> (from: String, to: String) {
            (sql.bind(.integer(range.from)), sql.bind(.integer(range.to)))
        }
        return Bounds(dialect: sql.dialect, hours: bind(hours), minutes: minutes.map(bind))
    }

    /// ``totals(hours:minutes:slice:)`` of this window, reading only its non-empty kinds of buckets.
    /// - Parameter bounds: this window's, bound by ``bind(into:)``.
    func totals(_ bounds: Bounds, slice: GroupSlice = .whole) -> String {
        bounds.totals(
            hours: hours.from < hours.to ? hours : nil, minutes: minutes.contains { $0.from < $0.to }, slice: slice)
    }
}

extension WindowBuckets {
    /// A window's bounds as the placeholders of a statement being built.
    struct Bounds {
        let dialect: SQLDialect
        /// The first and the first excluded hour.
        let hours: (from: String, to: String)
        /// The two ranges of minutes.
        let minutes: [(from: String, to: String)]

        /// A subquery of the window's rows of one kind of rollup, hourly and per minute together.
        ///
        /// Each range of minutes is a branch of its own: SQLite answers `(minute in one range) OR (minute in the
        /// other)` with a "multi-index OR", which collects every matching key and then looks each row up again,
        /// and so costs far more on a busy day's edge rows than one range scan per branch (BENCHMARKS.md, the
        /// `fields` query measurements).
        /// - Parameters:
        ///   - table: the kind of rollup, by its hourly table's name in ``Rollup``.
        ///   - columns: the columns to read, the same in both tables.
        ///   - condition: a further condition of every branch, after `AND`. A condition outside the subquery is
        ///     not always pushed into its branches (SQLite keeps one holding a subquery outside), and then the
        ///     window's rows of every group are read to keep a few groups' rows.
        ///   - joining: what each branch reads before the rollup, ending in `CROSS JOIN`; the rollup is then `r`.
        ///     Keys listed there and joined in `condition` are looked up one by one, where a list of keys in a
        ///     condition is checked against the window's rows of every key.
        func rows(
            of table: KeyPath<Rollup, String>, columns: String, where condition: String = "", joining: String = ""
        ) -> String {
            let (hourly, perMinute) = (joining + Rollup.hour[keyPath: table], joining + Rollup.minute[keyPath: table])
            return """
                (SELECT \(columns) FROM \(hourly) r WHERE hour >= \(hours.from) AND hour < \(hours.to)\(condition)
                 UNION ALL
                 SELECT \(columns) FROM \(perMinute) r WHERE minute >= \(minutes[0].from) AND minute < \(minutes[0].to)\(condition)
                 UNION ALL
                 SELECT \(columns) FROM \(perMinute) r WHERE minute >= \(minutes[1].from) AND minute < \(minutes[1].to)\(condition))
                """
        }

        /// A subquery of every group's report count in the window: `group_seq, total`, one row per group with
        /// reports in it, in no order.
        ///
        /// The whole hours come from the day rows (``DayCounts``), one or two a group for a day's window where the
        /// hourly cells are 23; a group whose day rows hold none of the window's hours sums to 0 and is left out.
        /// On SQLite they are summed group by group: `groups` is read in `group_seq` order and each group's days
        /// found in its `(group_seq, day)` key, so the sums come out already grouped. Summing the window's rows as
        /// an index by time yields them instead sorts them all by group in a temporary B-tree, which was most of
        /// the summary's time. `CROSS JOIN` is SQLite's way to fix the join order; PostgreSQL plans it as any
        /// inner join. Only the few minute rows at the window's edges are then grouped by sorting.
        /// - Parameters:
        ///   - hours: the whole hours, the values bound as ``hours``; `nil` reads none, as a window of minutes only
        ///     would otherwise still look up every group's empty range of days.
        ///   - minutes: whether to read the minute ranges.
        ///   - slice: the part of the groups to sum.
        func totals(hours: (from: Int64, to: Int64)?, minutes: Bool = true, slice: GroupSlice = .whole) -> String {
            var branches: [String] = []
            if let hours {
                let (from, to) = self.hours
                branches.append(
                    """
                    SELECT k.group_seq, \(dialect.cappedSum(DayCounts.sum(ofHours: hours, in: "c"))) AS total
                        FROM groups k CROSS JOIN \(DayCounts.table) c
                        WHERE \(from) < \(to) AND c.group_seq = k.group_seq
                            AND c.day >= \(from) / 24 AND c.day <= (\(to) - 1) / 24\(slice.condition(on: "k.group_seq"))
                        GROUP BY k.group_seq
                    """)
            }
            if minutes || hours == nil {
                branches += self.minutes.map { from, to in
                    """
                    SELECT group_seq, count AS total FROM \(Rollup.minute.groupCounts)
                        WHERE minute >= \(from) AND minute < \(to)\(slice.condition(on: "group_seq"))
                    """
                }
            }
            return """
                (SELECT group_seq, \(dialect.cappedSum("total")) AS total FROM (
                    \(branches.joined(separator: "\n    UNION ALL\n    "))
                ) w GROUP BY group_seq HAVING SUM(total) > 0)
                """
        }
    }
}

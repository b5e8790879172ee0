import DecodeWatchCore
import Foundation

/// The rollup buckets that make up a window `[since, until)` (SPEC §3): the whole hours inside it from the
/// hourly rollups, and the minutes of the partial hours at its edges from the minute rollups.
///
/// Minutes are kept for ``Minute/kept``: an edge older than that widens to the whole hour it falls in,
/// which is the coarser resolution the README states for old data.
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

    /// The six values the SQL of ``rows(of:columns:dialect:)`` binds as parameters 1…6.
    var arguments: [SQLValue] {
        [.integer(hours.from), .integer(hours.to)] + minutes.flatMap { [SQLValue.integer($0.from), .integer($0.to)] }
    }

    /// A subquery of the window's rows of one kind of rollup, hourly and per minute together.
    /// - Parameters:
    ///   - table: the kind of rollup, by its hourly table's name in ``Rollup``.
    ///   - columns: the columns to read, the same in both tables.
    static func rows(of table: KeyPath<Rollup, String>, columns: String, dialect: SQLDialect) -> String {
        let p = dialect.parameter
        return """
            (SELECT \(columns) FROM \(Rollup.hour[keyPath: table]) WHERE hour >= \(p(1)) AND hour < \(p(2))
             UNION ALL
             SELECT \(columns) FROM \(Rollup.minute[keyPath: table])
             WHERE (minute >= \(p(3)) AND minute < \(p(4))) OR (minute >= \(p(5)) AND minute < \(p(6))))
            """
    }
}

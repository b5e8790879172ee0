/// The few spellings in which SQLite and PostgreSQL differ; every statement is written once and
/// asks its dialect for these.
package enum SQLDialect: Sendable {
    /// SQLite 3.35 or later (for `RETURNING`).
    case sqlite
    /// PostgreSQL 12 or later.
    case postgres

    /// The bound parameter at a 1-based position: `?1` or `$1`. Statements number them with ``SQLBuilder``.
    package func parameter(_ position: Int) -> String {
        switch self {
        case .sqlite: return "?\(position)"
        case .postgres: return "$\(position)"
        }
    }

    /// How many rows each statement of a multi-row insert of `count` rows takes, at most `max` each: full
    /// statements, then the rest in falling powers of two, so that each table has at most a handful of distinct
    /// texts to keep (SQLite keeps the ingest inserts prepared, ``SQLStatement/isReused``, since it parses a
    /// statement in about the time it takes to write its rows; the collector keeps every text it writes).
    package func statementSizes(rows count: Int, max: Int) -> [Int] {
        var sizes = Array(repeating: max, count: count / max)
        var rest = count % max
        while rest > 0 {
            let size = 1 << (Int.bitWidth - 1 - rest.leadingZeroBitCount)
            sizes.append(size)
            rest -= size
        }
        return sizes
    }

    /// Most rows of `columns` columns in one multi-row insert: SQLite's historical limit is 999 parameters, and
    /// its statements of 90 rows were the fastest; PostgreSQL takes up to 65,535 parameters and pays a round trip
    /// per statement, so it gets statements of up to 512 rows.
    package func rowsPerInsert(columns: Int) -> Int {
        switch self {
        case .sqlite: return min(90, 999 / columns)
        case .postgres: return min(512, 65_535 / columns)
        }
    }

    /// The smaller of two values: SQLite's two-argument `MIN` is PostgreSQL's `LEAST`.
    package func least(_ a: String, _ b: String) -> String {
        "\(self == .sqlite ? "MIN" : "LEAST")(\(a), \(b))"
    }

    /// The larger of two values: SQLite's two-argument `MAX` is PostgreSQL's `GREATEST`.
    package func greatest(_ a: String, _ b: String) -> String {
        "\(self == .sqlite ? "MAX" : "GREATEST")(\(a), \(b))"
    }

    /// The sum of a count column that never fails and never exceeds ``StoredCount/maxSum``.
    ///
    /// SQLite's `SUM` raises an error on 64-bit overflow and `TOTAL` never does; PostgreSQL sums
    /// `BIGINT` as `NUMERIC`, which cannot overflow. Capping keeps every sum exact and convertible to `Int`,
    /// and an empty sum is 0 in both.
    /// - Parameter column: the column or expression to sum.
    package func cappedSum(_ column: String) -> String {
        switch self {
        case .sqlite: return "CAST(MIN(TOTAL(\(column)), \(StoredCount.maxSum)) AS INTEGER)"
        case .postgres: return "CAST(LEAST(COALESCE(SUM(\(column)), 0), \(StoredCount.maxSum)) AS BIGINT)"
        }
    }

    /// Appended to a `SELECT` whose rows an `UPDATE` then changes: PostgreSQL locks them in the
    /// select's order (so writers never deadlock); SQLite has one writer and no row locks.
    package var lockingClause: String {
        self == .postgres ? " FOR UPDATE" : ""
    }
}

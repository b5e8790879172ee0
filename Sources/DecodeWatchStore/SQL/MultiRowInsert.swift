import Synchronization

extension IngestStatements {
    /// Upserts rows of `key columns…, counts…`, adding each count to the stored one, up to `cap`.
    static func add(
        into table: String, columns key: [String], counts: [String] = ["count"], rows: [[SQLValue]],
        cap: Int64 = StoredCount.max, dialect: SQLDialect
    ) -> [SQLStatement] {
        let sums = counts.map { column in
            "\(column) = \(dialect.least("\(table).\(column) + excluded.\(column)", String(cap)))"
        }
        return insert(
            into: table, columns: key + counts, rows: rows, dialect: dialect,
            then: """
                ON CONFLICT (\(key.joined(separator: ", "))) DO UPDATE
                SET \(sums.joined(separator: ", "))
                """)
    }

    /// Inserts rows in statements of at most ``SQLDialect/rowsPerInsert(columns:)`` rows, in order, sized so that
    /// their texts recur (``SQLDialect/statementSizes(rows:max:)``).
    /// - Parameter then: the `ON CONFLICT` clause and whatever follows it.
    static func insert(
        into table: String, columns: [String], rows: [[SQLValue]], dialect: SQLDialect, then: String
    ) -> [SQLStatement] {
        var start = 0
        return dialect.statementSizes(rows: rows.count, max: dialect.rowsPerInsert(columns: columns.count)).map {
            size in
            let chunk = rows[start..<start + size]
            start += size
            return InsertShape(table: table, columns: columns, then: then, rows: size, dialect: dialect).statement(
                chunk)
        }
    }
}

/// What a multi-row insert's text depends on. Every commit writes the same few texts, each thousands of
/// characters long: they are written once per process (``text``) instead of once per commit, where writing them
/// showed in the collector's profile at full load.
private struct InsertShape: Hashable {
    let table: String
    let columns: [String]
    let then: String
    let rows: Int
    let dialect: SQLDialect

    /// The texts written so far: a few per table, since the ingest's tables, columns and clauses are fixed and
    /// row counts are at most ``SQLDialect/rowsPerInsert(columns:)`` in falling powers of two.
    private static let written = Mutex<[InsertShape: String]>([:])

    /// The statement inserting these rows, `rows` of them, each of `columns` values: the text is built once per
    /// shape, by a builder, and the rows' values bound in the order it binds them.
    func statement(_ values: ArraySlice<[SQLValue]>) -> SQLStatement {
        if let text = Self.written.withLock({ $0[self] }) {
            return SQLStatement(text, values.flatMap { $0 }, isReused: true)
        }
        var sql = SQLBuilder(dialect)
        sql.append("INSERT INTO \(table) (\(columns.joined(separator: ", ")))\nVALUES ")
        for (index, row) in values.enumerated() { sql.append("\(index == 0 ? "" : ", ")(\(bindInOrder: row))") }
        sql.append("\n\(then)")
        let statement = sql.statement(isReused: true)
        Self.written.withLock { $0[self] = statement.sql }
        return statement
    }
}

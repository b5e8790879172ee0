/// Where the two stores' `CREATE` statements differ: every ``SchemaStep`` is written once and asks its dialect
/// for these.
extension SQLDialect {
    /// A column type's name. Both stores' integers are 64 bits: SQLite's `INTEGER` is PostgreSQL's `BIGINT`.
    package func name(of type: SchemaColumn.ValueType) -> String {
        switch (type, self) {
        case (.integer, .sqlite): return "INTEGER"
        case (.integer, .postgres): return "BIGINT"
        case (.text, _): return "TEXT"
        case (.bytes, .sqlite): return "BLOB"
        case (.bytes, .postgres): return "BYTEA"
        }
    }

    /// What follows a `CREATE TABLE`'s column list. SQLite keeps the rows of a `WITHOUT ROWID` table in its
    /// primary key's order, with no rowid beside it, which suits tables read by ranges of their key; PostgreSQL
    /// has no such choice.
    func tableOptions(withoutRowID: Bool) -> String {
        self == .sqlite && withoutRowID ? " WITHOUT ROWID" : ""
    }

    /// An index's parenthesized columns: its keys, then the columns it only carries so that a query reads the
    /// index alone. PostgreSQL carries them as `INCLUDE` columns; SQLite, which has none, as its last keys.
    func indexColumns(_ keys: [String], including carried: [String]) -> String {
        switch self {
        case .sqlite: return "(\((keys + carried).joined(separator: ", ")))"
        case .postgres:
            let included = carried.isEmpty ? "" : " INCLUDE (\(carried.joined(separator: ", ")))"
            return "(\(keys.joined(separator: ", ")))\(included)"
        }
    }
}

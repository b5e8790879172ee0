/// One step of a ``SchemaMigration``, written once and spelled for each store by ``statements(in:)``.
package enum SchemaStep: Sendable {
    /// `CREATE TABLE` with `columns`, and a primary key of several columns if `primaryKey` names them (a key of
    /// one column is that column's ``SchemaColumn/Constraint/primaryKey``). `withoutRowID` is SQLite's
    /// `WITHOUT ROWID` (``SQLDialect/tableOptions(withoutRowID:)``).
    case createTable(_ name: String, _ columns: [SchemaColumn], primaryKey: [String] = [], withoutRowID: Bool = false)
    /// `CREATE INDEX` on the `keys` of `table`, carrying the `including` columns too
    /// (``SQLDialect/indexColumns(_:including:)``).
    case createIndex(_ name: String, on: String, _ keys: [String], including: [String] = [])
    /// `ALTER TABLE … ADD COLUMN`.
    case addColumn(_ column: SchemaColumn, to: String)
    /// A statement both stores run as written.
    case sql(String)
    /// A statement both stores run, asking the dialect for the spellings in which they differ.
    case dialectSQL(@Sendable (SQLDialect) -> String)
    /// Steps one store alone takes. Every difference between the two stores' schemas, and between the ways they
    /// got there, is one of these.
    indirect case only(SQLDialect, [SchemaStep])
    /// Work SQL cannot do, such as hashing in Swift, for SQLite alone: the store that existed when it was needed.
    /// The SQLite store runs the work of that name (`SQLiteMigrations`); it has no statements.
    case sqliteFunction(SQLiteWork)

    /// The step's statements in a dialect, in order; none for a step of the other store alone.
    package func statements(in dialect: SQLDialect) -> [String] {
        switch self {
        case .createTable(let name, let columns, let primaryKey, let withoutRowID):
            let key = primaryKey.isEmpty ? [] : ["PRIMARY KEY (\(primaryKey.joined(separator: ", ")))"]
            let definitions = columns.map { $0.definition(in: dialect) } + key
            return [
                "CREATE TABLE \(name) (\n    \(definitions.joined(separator: ",\n    "))\n)"
                    + dialect.tableOptions(withoutRowID: withoutRowID)
            ]
        case .createIndex(let name, let table, let keys, let carried):
            return ["CREATE INDEX \(name) ON \(table) \(dialect.indexColumns(keys, including: carried))"]
        case .addColumn(let column, let table):
            return ["ALTER TABLE \(table) ADD COLUMN \(column.definition(in: dialect))"]
        case .sql(let statement):
            return [statement]
        case .dialectSQL(let statement):
            return [statement(dialect)]
        case .only(let store, let steps):
            return store == dialect ? steps.flatMap { $0.statements(in: dialect) } : []
        case .sqliteFunction:
            return []
        }
    }
}

/// Work a SQLite migration does in Swift (``SchemaStep/sqliteFunction(_:)``), done by the SQLite store.
package enum SQLiteWork: Sendable {
    /// Moves every group from its FNV-1a id to its SHA-256 id (``GroupKey/id``), in every table.
    case rekeyGroupsBySHA256
}

/// A column of the schema both stores share, its type spelled for each by ``SQLDialect/name(of:)``.
package struct SchemaColumn: Sendable, Equatable {
    /// What a column holds.
    package enum ValueType: Sendable, CaseIterable {
        /// A 64-bit integer: counts, hashes, and times as milliseconds, minutes or hours since 1970.
        case integer
        case text
        /// Bytes, such as a HyperLogLog sketch.
        case bytes
    }

    /// What is written after a column's type; the same in both stores.
    package enum Constraint: Sendable, Equatable {
        /// `NOT NULL`.
        case notNull
        /// Nothing: the column may hold `NULL`.
        case nullable
        /// `NOT NULL DEFAULT` the given SQL value, which rows written before the column existed take.
        case defaulting(String)
        /// `NOT NULL UNIQUE`.
        case unique
        /// `PRIMARY KEY`: the table's key is this one column. Not `NOT NULL` as written: SQLite then lets a
        /// table with a rowid hold a `NULL` key (PostgreSQL never does), and the released tables say no more.
        case primaryKey
    }

    package let name: String
    package let type: ValueType
    package let constraint: Constraint

    /// An integer column, `NOT NULL` unless `constraint` says otherwise.
    package static func integer(_ name: String, _ constraint: Constraint = .notNull) -> SchemaColumn {
        SchemaColumn(name: name, type: .integer, constraint: constraint)
    }

    /// A text column, `NOT NULL` unless `constraint` says otherwise.
    package static func text(_ name: String, _ constraint: Constraint = .notNull) -> SchemaColumn {
        SchemaColumn(name: name, type: .text, constraint: constraint)
    }

    /// A bytes column, `NOT NULL` unless `constraint` says otherwise.
    package static func bytes(_ name: String, _ constraint: Constraint = .notNull) -> SchemaColumn {
        SchemaColumn(name: name, type: .bytes, constraint: constraint)
    }

    /// The column as `CREATE TABLE` and `ADD COLUMN` define it.
    func definition(in dialect: SQLDialect) -> String {
        let constraint: String
        switch self.constraint {
        case .notNull: constraint = " NOT NULL"
        case .nullable: constraint = ""
        case .defaulting(let value): constraint = " NOT NULL DEFAULT \(value)"
        case .unique: constraint = " NOT NULL UNIQUE"
        case .primaryKey: constraint = " PRIMARY KEY"
        }
        return "\(name) \(dialect.name(of: type))\(constraint)"
    }
}

/// One migration of the schema both stores share (``all``), under the name each store records it by.
///
/// A database runs each migration once, in order, and records it; migrations are never edited once released
/// (add new ones instead), so the names and steps of a released one stay as they are.
package struct SchemaMigration: Sendable {
    /// Its identifier in SQLite's `grdb_migrations`.
    package let sqlite: String
    /// Its number and name in PostgreSQL's `schema_migrations`; `nil` for a migration older than the
    /// PostgreSQL store.
    package let postgres: (version: Int64, name: String)?
    package let steps: [SchemaStep]

    /// The migration's statements in a dialect, in order.
    package func statements(in dialect: SQLDialect) -> [String] {
        steps.flatMap { $0.statements(in: dialect) }
    }
}

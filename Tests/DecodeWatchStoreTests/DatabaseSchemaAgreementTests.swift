import DecodeWatchStore
import Testing

/// The two stores' schemas, read back from their catalogs, are the same: tables, columns, types, keys and
/// indexes, but for the indexes the migrations give one store alone (``SchemaStep/only(_:_:)``).
@Suite("Database schema agreement")
struct DatabaseSchemaAgreementTests {
    @Test("fresh SQLite and PostgreSQL databases have the same tables, columns, types, keys and indexes")
    func storesAgree() async throws {
        try await Self.withBoth { sqlite, postgres in
            let differences = try await Self.shared(sqlite).differences(
                from: try await Self.shared(postgres), names: ("SQLite", "PostgreSQL"))
            #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        }
    }

    @Test("a column or an index added to one store alone is a difference")
    func findsWhatOneStoreAdds() async throws {
        try await Self.withBoth { sqlite, postgres in
            try await postgres.execute("ALTER TABLE groups ADD COLUMN note TEXT")
            try await sqlite.execute("CREATE INDEX groups_on_kind ON groups (kind)")
            let differences = try await Self.shared(sqlite).differences(
                from: try await Self.shared(postgres), names: ("SQLite", "PostgreSQL"))
            #expect(
                differences == [
                    "column groups.note: SQLite nothing, PostgreSQL text",
                    "index groups.groups_on_kind: SQLite (kind), PostgreSQL nothing",
                ])
        }
    }

    /// Runs `body` with a fresh database of each store, migrated by opening the store.
    static func withBoth(_ body: (_ sqlite: FreshDatabase, _ postgres: FreshDatabase) async throws -> Void)
        async throws
    {
        try await StoreBackend.sqlite.withFreshDatabase { sqlite in
            try await StoreBackend.postgres.withFreshDatabase { postgres in
                try await body(sqlite.database, postgres.database)
            }
        }
    }

    /// The tables one store alone has: PostgreSQL's log of acknowledged batches, which SQLite keeps in a file of its
    /// own.
    static let tablesOnlyInPostgres = ["ingest_log"]

    /// The database's schema without the tables and indexes its store alone has, which it must have.
    static func shared(_ database: FreshDatabase) async throws -> LiveSchema {
        var schema = try await database.schema()
        if database.dialect == .postgres {
            for table in tablesOnlyInPostgres { #expect(schema.tables.removeValue(forKey: table) != nil, "\(table)") }
        }
        for (index, table) in indexes(onlyIn: database.dialect) {
            #expect(schema.tables[table]?.indexes.removeValue(forKey: index) != nil, "\(table).\(index)")
        }
        return schema
    }

    /// The indexes one store alone creates, with their tables, as the migrations say.
    static func indexes(onlyIn dialect: SQLDialect) -> [String: String] {
        func created(in dialect: SQLDialect, by steps: [SchemaStep]) -> [String: String] {
            steps.reduce(into: [:]) { indexes, step in
                switch step {
                case .createIndex(let name, let table, _, _): indexes[name] = table
                case .only(dialect, let steps): indexes.merge(created(in: dialect, by: steps)) { $1 }
                default: break
                }
            }
        }
        let steps = SchemaMigration.all.flatMap(\.steps)
        let other = created(in: dialect == .sqlite ? .postgres : .sqlite, by: steps)
        return created(in: dialect, by: steps).filter { other[$0.key] == nil }
    }
}

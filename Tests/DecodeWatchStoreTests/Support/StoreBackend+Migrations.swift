import DecodeWatchStore
import GRDB
import Testing

@testable import DecodeWatchStorePostgres
@testable import DecodeWatchStoreSQLite

extension StoreBackend {
    /// Runs `body` on a database of this backend written by an older version: migrated through the SQLite
    /// migration named `migration` (and the PostgreSQL migrations up to its number), given `rows` in that schema,
    /// then opened, which runs the later migrations; the database is deleted afterwards.
    func withDatabase<T: Sendable>(
        migratedThrough migration: String, rows: [String], _ body: (StoreFixture) async throws -> T
    ) async throws -> T {
        try await withFreshDatabase(
            prepare: { database in
                try await database.migrate(through: migration)
                for statement in rows { try await database.execute(statement) }
            }, body)
    }
}

extension FreshDatabase {
    /// Creates the schema as it was once the SQLite migration named `migration` had run, and in PostgreSQL every
    /// migration up to its number (the latest before it for one older than the PostgreSQL store).
    func migrate(through migration: String) async throws {
        let index = try #require(SchemaMigration.all.firstIndex { $0.sqlite == migration }, "\(migration)")
        switch self {
        case .sqlite(let folder):
            let queue = try DatabaseQueue(path: folder.appendingPathComponent("s.sqlite").path)
            try SQLiteMigrations.migrator.migrate(queue, upTo: migration)
            try queue.close()
        case .postgres:
            let last = SchemaMigration.all[...index].compactMap(\.postgres?.version).max() ?? 0
            try await execute(
                "CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
            )
            for migration in PostgresMigrations.all where migration.version <= last {
                for statement in migration.statements { try await execute(statement) }
                try await execute(
                    "INSERT INTO schema_migrations VALUES (\(migration.version), '\(migration.name)', 0)")
            }
        }
    }
}

import DecodeWatchStore
import Foundation
import Logging
import PostgresNIO

/// The schema's migrations (``SchemaMigration/all`` in DecodeWatchStore) as PostgreSQL runs them: numbered,
/// each recorded in `schema_migrations` when it ran.
enum PostgresMigrations {
    /// A migration in PostgreSQL's statements.
    struct Migration {
        /// Its number; migrations run in this order, each once.
        let version: Int64
        /// What it does.
        let name: String
        /// Its statements (the extended protocol runs one statement per query).
        let statements: [String]
    }

    static let all: [Migration] = SchemaMigration.all.compactMap { migration in
        migration.postgres.map {
            Migration(version: $0.version, name: $0.name, statements: migration.statements(in: .postgres))
        }
    }

    /// The first key of the advisory lock held while migrating ('DWmg'); the second is the schema's hash,
    /// so replicas sharing a schema take turns and separate schemas do not wait for each other.
    static let lockKey: Int32 = 0x4457_6D67

    /// Applies the migrations not applied yet, in one transaction under the advisory lock.
    /// - Parameters:
    ///   - schema: the schema of the connection's `search_path`, created when missing; `nil` for the
    ///     role's default.
    /// - Returns: the versions applied.
    static func migrate(on connection: PostgresConnection, schema: String?, logger: Logger) async throws -> [Int64] {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query(
                "SELECT pg_advisory_xact_lock(\(lockKey), hashtext(COALESCE(\(schema), current_schema())))",
                logger: logger)
            if let schema {
                try await connection.query(
                    PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(quoted(schema))"), logger: logger)
            }
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version BIGINT PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at BIGINT NOT NULL
                )
                """, logger: logger)
            var applied = Set<Int64>()
            for try await version in try await connection.query(
                "SELECT version FROM schema_migrations", logger: logger
            ).decode(Int64.self) {
                applied.insert(version)
            }
            var ran: [Int64] = []
            for migration in all where !applied.contains(migration.version) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
                try await connection.query(
                    """
                    INSERT INTO schema_migrations (version, name, applied_at)
                    VALUES (\(migration.version), \(migration.name), \(now))
                    """, logger: logger)
                ran.append(migration.version)
            }
            return ran
        }
    }

    /// A name as a quoted SQL identifier, whatever characters it holds.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

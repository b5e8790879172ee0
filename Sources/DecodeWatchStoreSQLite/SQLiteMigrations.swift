import DecodeWatchCore
import DecodeWatchStore
import GRDB

/// The schema's migrations (``SchemaMigration/all``) as SQLite runs them: GRDB records each by its name in
/// `grdb_migrations`.
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in SchemaMigration.all {
            migrator.registerMigration(migration.sqlite) { db in
                for step in migration.steps {
                    if case .sqliteFunction(let work) = step { try run(work, in: db) }
                    for statement in step.statements(in: .sqlite) { try db.execute(sql: statement) }
                }
            }
        }
        return migrator
    }

    private static func run(_ work: SQLiteWork, in db: Database) throws {
        switch work {
        case .rekeyGroupsBySHA256: try rekeyGroupsBySHA256(db)
        }
    }

    /// Moves every group from its FNV-1a id to its SHA-256 id (``GroupKey/id``), in every table.
    private static func rekeyGroupsBySHA256(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT group_id, app_id, endpoint, path, kind FROM groups")
        for row in rows {
            let key = GroupKey(
                app: row["app_id"], endpoint: row["endpoint"], path: row["path"],
                kind: ReportKind(rawValue: row["kind"]) ?? .other)
            let old: String = row["group_id"]
            for table in ["groups", "group_hours", "group_hour_versions", "group_hour_expected", "group_hour_installs"]
            {
                try db.execute(sql: "UPDATE \(table) SET group_id = ? WHERE group_id = ?", arguments: [key.id, old])
            }
        }
    }
}

import DecodeWatchCore
import GRDB

/// The SQLite schema, as migrations that are never edited once released (add new ones instead).
///
/// Counts live in hourly rollups keyed by group, so the summary reads one row per group and hour
/// instead of one per report. Times are milliseconds since 1970 (UTC); hours are hour indexes.
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createReportTables") { db in
            try db.execute(
                sql: """
                    CREATE TABLE batches (
                        app_id TEXT NOT NULL,
                        batch_id TEXT NOT NULL,
                        received_at INTEGER NOT NULL,
                        reports INTEGER NOT NULL,
                        PRIMARY KEY (app_id, batch_id)
                    ) WITHOUT ROWID;

                    CREATE TABLE groups (
                        group_id TEXT PRIMARY KEY,
                        app_id TEXT NOT NULL,
                        endpoint TEXT NOT NULL,
                        path TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        first_seen INTEGER NOT NULL,
                        last_seen INTEGER NOT NULL,
                        sample_snippet TEXT,
                        sample_message TEXT,
                        sample_type TEXT,
                        state TEXT NOT NULL DEFAULT 'open',
                        resolved_at INTEGER,
                        regressed_at INTEGER,
                        regressed_version TEXT
                    );

                    CREATE TABLE group_hours (
                        group_id TEXT NOT NULL,
                        hour INTEGER NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (group_id, hour)
                    ) WITHOUT ROWID;
                    CREATE INDEX group_hours_on_hour ON group_hours (hour, group_id, count);

                    CREATE TABLE group_hour_versions (
                        group_id TEXT NOT NULL,
                        hour INTEGER NOT NULL,
                        version TEXT NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (group_id, hour, version)
                    ) WITHOUT ROWID;

                    CREATE TABLE group_hour_expected (
                        group_id TEXT NOT NULL,
                        hour INTEGER NOT NULL,
                        expected TEXT NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (group_id, hour, expected)
                    ) WITHOUT ROWID;

                    CREATE TABLE group_hour_installs (
                        group_id TEXT NOT NULL,
                        hour INTEGER NOT NULL,
                        install_hash INTEGER NOT NULL,
                        PRIMARY KEY (group_id, hour, install_hash)
                    ) WITHOUT ROWID;

                    CREATE TABLE endpoint_hours (
                        app_id TEXT NOT NULL,
                        endpoint TEXT NOT NULL,
                        hour INTEGER NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (app_id, endpoint, hour)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("createDigestTables") { db in
            // One row per digest period and destination: the exactly-once record of deliveries.
            try db.execute(
                sql: """
                    CREATE TABLE digest_runs (
                        period_start INTEGER NOT NULL,
                        period_end INTEGER NOT NULL,
                        destination TEXT NOT NULL,
                        claim_token TEXT,
                        claimed_at INTEGER,
                        delivered_at INTEGER,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT,
                        PRIMARY KEY (period_start, period_end, destination)
                    );
                    CREATE INDEX groups_on_state_last_seen ON groups (state, last_seen);
                    """)
        }
        migrator.registerMigration("createCredentials") { db in
            // Ingest keys and read tokens; only the SHA-256 of a secret is kept.
            try db.execute(
                sql: """
                    CREATE TABLE credentials (
                        credential_id TEXT PRIMARY KEY,
                        kind TEXT NOT NULL,
                        app_id TEXT,
                        name TEXT,
                        secret_hash TEXT NOT NULL UNIQUE,
                        created_at INTEGER NOT NULL,
                        last_used_at INTEGER,
                        revoked_at INTEGER
                    );
                    CREATE INDEX credentials_on_kind ON credentials (kind, created_at);
                    """)
        }
        migrator.registerMigration("rekeyGroupsBySHA256", migrate: rekeyGroupsBySHA256)
        migrator.registerMigration("indexBatchesByReceiveTime") { db in
            // Retention deletes batch ids by receive time, a few thousand at a time.
            try db.execute(sql: "CREATE INDEX batches_on_received_at ON batches (received_at)")
        }
        migrator.registerMigration("createGroupActionTables") { db in
            // Mutes and resolutions in the next version per group, and the history of every decision.
            try db.execute(
                sql: """
                    CREATE TABLE group_actions (
                        group_id TEXT PRIMARY KEY,
                        muted_at INTEGER,
                        muted_until INTEGER,
                        muted_until_total INTEGER,
                        next_version_at INTEGER,
                        next_version_through TEXT
                    );

                    CREATE TABLE group_status_events (
                        group_id TEXT NOT NULL,
                        at INTEGER NOT NULL,
                        action TEXT NOT NULL,
                        detail TEXT,
                        PRIMARY KEY (group_id, at, action)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("createMinuteRollups") { db in
            // The same rollups per minute, kept for a week: they make the edges of recent windows exact.
            try db.execute(
                sql: """
                    CREATE TABLE group_minutes (
                        group_id TEXT NOT NULL,
                        minute INTEGER NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (group_id, minute)
                    ) WITHOUT ROWID;
                    CREATE INDEX group_minutes_on_minute ON group_minutes (minute, group_id, count);

                    CREATE TABLE group_minute_versions (
                        group_id TEXT NOT NULL,
                        minute INTEGER NOT NULL,
                        version TEXT NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (group_id, minute, version)
                    ) WITHOUT ROWID;

                    CREATE TABLE group_minute_expected (
                        group_id TEXT NOT NULL,
                        minute INTEGER NOT NULL,
                        expected TEXT NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (group_id, minute, expected)
                    ) WITHOUT ROWID;

                    CREATE TABLE group_minute_installs (
                        group_id TEXT NOT NULL,
                        minute INTEGER NOT NULL,
                        install_hash INTEGER NOT NULL,
                        PRIMARY KEY (group_id, minute, install_hash)
                    ) WITHOUT ROWID;

                    CREATE TABLE endpoint_minutes (
                        app_id TEXT NOT NULL,
                        endpoint TEXT NOT NULL,
                        minute INTEGER NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (app_id, endpoint, minute)
                    ) WITHOUT ROWID;
                    CREATE INDEX endpoint_minutes_on_minute ON endpoint_minutes (minute);
                    """)
        }
        migrator.registerMigration("createAlertTables") { db in
            // Alert rules, and one claim per rule and group: who alerted about which episode, and when.
            try db.execute(
                sql: """
                    CREATE TABLE alert_rules (
                        rule_id TEXT PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        app_id TEXT,
                        endpoint TEXT,
                        kind TEXT,
                        fires_when TEXT NOT NULL,
                        window_seconds INTEGER NOT NULL,
                        webhook TEXT NOT NULL,
                        format TEXT NOT NULL,
                        created_at INTEGER NOT NULL
                    );

                    CREATE TABLE alert_claims (
                        rule_id TEXT NOT NULL,
                        group_id TEXT NOT NULL,
                        episode INTEGER NOT NULL,
                        claim_token TEXT NOT NULL,
                        alerted_at INTEGER NOT NULL,
                        PRIMARY KEY (rule_id, group_id)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("createContracts") { db in
            // Imported OpenAPI contracts, each import a new version; `document` is Core's resolved ContractSpec as JSON.
            try db.execute(
                sql: """
                    CREATE TABLE contracts (
                        contract_id TEXT PRIMARY KEY,
                        app_id TEXT NOT NULL,
                        name TEXT NOT NULL,
                        imported_at INTEGER NOT NULL,
                        source TEXT,
                        openapi TEXT NOT NULL,
                        title TEXT NOT NULL,
                        api_version TEXT NOT NULL,
                        operations INTEGER NOT NULL,
                        document TEXT NOT NULL
                    );
                    CREATE INDEX contracts_on_app_name ON contracts (app_id, name, imported_at);
                    """)
        }
        migrator.registerMigration("indexEndpointHoursByHour") { db in
            // Every window reads the decode counts of its hours: without this, each summary scanned every
            // endpoint's every hour kept.
            try db.execute(sql: "CREATE INDEX endpoint_hours_on_hour ON endpoint_hours (hour, app_id, endpoint, count)")
        }
        migrator.registerMigration("addInstallSketches") { db in
            // A cell keeps at most 1,000 install hashes; past that they fold into a HyperLogLog sketch. Each
            // cell counts the hashes it kept since its last fold in `exact_installs`. Cells written before
            // this migration count from 0 (no backfill, which would rewrite every cell of a large database):
            // their older hashes still count exactly and expire with retention.
            try db.execute(
                sql: """
                    ALTER TABLE group_hours ADD COLUMN exact_installs INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE group_minutes ADD COLUMN exact_installs INTEGER NOT NULL DEFAULT 0;

                    CREATE TABLE group_hour_install_sketches (
                        group_id TEXT NOT NULL,
                        hour INTEGER NOT NULL,
                        sketch BLOB NOT NULL,
                        PRIMARY KEY (group_id, hour)
                    ) WITHOUT ROWID;

                    CREATE TABLE group_minute_install_sketches (
                        group_id TEXT NOT NULL,
                        minute INTEGER NOT NULL,
                        sketch BLOB NOT NULL,
                        PRIMARY KEY (group_id, minute)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("keyCellsByGroupSeq", migrate: keyCellsByGroupSeq)
        migrator.registerMigration("addDayCounts") { db in
            // A window's whole hours are summed from one row per group and day (``DayCounts``).
            try db.execute(sql: DayCounts.create(in: .sqlite))
            try db.execute(sql: DayCounts.backfill(in: .sqlite))
        }
        migrator.registerMigration("runningDayTotals") { db in
            // Day rows hold running totals, so any run of hours is two columns: written again from the cells.
            try db.execute(sql: "DELETE FROM \(DayCounts.table)")
            try db.execute(sql: DayCounts.backfill(in: .sqlite))
        }
        migrator.registerMigration("createReadinessChecks") { db in
            // `/readyz` commits a write to this one row: only a write proves that ingest can commit.
            try db.execute(sql: "CREATE TABLE readiness_checks (id INTEGER PRIMARY KEY, checked_at INTEGER NOT NULL)")
        }
        return migrator
    }

    /// Gives every group an integer `group_seq` and keys every cell table by it instead of the 32-character
    /// `group_id`: a window's totals read every group's cells, and integer keys make those rows a third of
    /// the size and their comparisons cheap. `AUTOINCREMENT` never hands out the number of a deleted group
    /// again. Cells of groups that no longer exist are dropped on the way.
    private static func keyCellsByGroupSeq(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE groups_keyed (
                    group_seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    group_id TEXT NOT NULL UNIQUE,
                    app_id TEXT NOT NULL,
                    endpoint TEXT NOT NULL,
                    path TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    first_seen INTEGER NOT NULL,
                    last_seen INTEGER NOT NULL,
                    sample_snippet TEXT,
                    sample_message TEXT,
                    sample_type TEXT,
                    state TEXT NOT NULL DEFAULT 'open',
                    resolved_at INTEGER,
                    regressed_at INTEGER,
                    regressed_version TEXT
                );
                INSERT INTO groups_keyed (group_id, app_id, endpoint, path, kind, first_seen, last_seen,
                    sample_snippet, sample_message, sample_type, state, resolved_at, regressed_at, regressed_version)
                SELECT group_id, app_id, endpoint, path, kind, first_seen, last_seen,
                    sample_snippet, sample_message, sample_type, state, resolved_at, regressed_at, regressed_version
                FROM groups ORDER BY group_id;
                DROP TABLE groups;
                ALTER TABLE groups_keyed RENAME TO groups;
                CREATE INDEX groups_on_state_last_seen ON groups (state, last_seen);
                """)
        for table in CellTable.all {
            for statement in table.rekeyed(in: .sqlite) { try db.execute(sql: statement) }
        }
        try db.execute(
            sql: """
                CREATE INDEX group_hours_on_hour ON group_hours (hour, group_seq, count);
                CREATE INDEX group_minutes_on_minute ON group_minutes (minute, group_seq, count);
                """)
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

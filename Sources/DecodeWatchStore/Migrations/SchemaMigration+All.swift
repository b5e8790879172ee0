extension SchemaMigration {
    /// The schema of both stores, as its migrations in order.
    ///
    /// Counts live in hourly rollups keyed by group, so the summary reads one row per group and hour instead of
    /// one per report. Times are milliseconds since 1970 (UTC); hours are hour indexes. Tables and columns are
    /// the same in both stores so that the shared statements run on both; where the stores differ, the steps
    /// say so with ``SchemaStep/only(_:_:)``.
    package static let all: [SchemaMigration] = [
        SchemaMigration(
            sqlite: "createReportTables", postgres: (1, "create_report_tables"),
            steps: [
                .createTable(
                    "batches", [.text("app_id"), .text("batch_id"), .integer("received_at"), .integer("reports")],
                    primaryKey: ["app_id", "batch_id"], withoutRowID: true),
                .createTable(
                    "groups",
                    [
                        .text("group_id", .primaryKey), .text("app_id"), .text("endpoint"), .text("path"),
                        .text("kind"), .integer("first_seen"), .integer("last_seen"),
                        .text("sample_snippet", .nullable), .text("sample_message", .nullable),
                        .text("sample_type", .nullable), .text("state", .defaulting("'open'")),
                        .integer("resolved_at", .nullable), .integer("regressed_at", .nullable),
                        .text("regressed_version", .nullable),
                    ]),
                // SQLite's came with the digest tables.
                .only(.postgres, [.createIndex("groups_on_state_last_seen", on: "groups", ["state", "last_seen"])]),
            ] + Rollup.hour.firstCellTables),
        // One row per digest period and destination: the exactly-once record of deliveries.
        SchemaMigration(
            sqlite: "createDigestTables", postgres: (2, "create_digest_runs"),
            steps: [
                .createTable(
                    "digest_runs",
                    [
                        .integer("period_start"), .integer("period_end"), .text("destination"),
                        .text("claim_token", .nullable), .integer("claimed_at", .nullable),
                        .integer("delivered_at", .nullable), .integer("attempts", .defaulting("0")),
                        .text("last_error", .nullable),
                    ],
                    primaryKey: ["period_start", "period_end", "destination"]),
                .only(.sqlite, [.createIndex("groups_on_state_last_seen", on: "groups", ["state", "last_seen"])]),
            ]),
        // Ingest keys and read tokens; only the SHA-256 of a secret is kept.
        SchemaMigration(
            sqlite: "createCredentials", postgres: (3, "create_credentials"),
            steps: [
                .createTable(
                    "credentials",
                    [
                        .text("credential_id", .primaryKey), .text("kind"), .text("app_id", .nullable),
                        .text("name", .nullable), .text("secret_hash", .unique), .integer("created_at"),
                        .integer("last_used_at", .nullable), .integer("revoked_at", .nullable),
                    ]),
                .createIndex("credentials_on_kind", on: "credentials", ["kind", "created_at"]),
            ]),
        SchemaMigration(
            sqlite: "rekeyGroupsBySHA256", postgres: nil,
            steps: [.sqliteFunction(.rekeyGroupsBySHA256)]),
        // Retention deletes batch ids by receive time, a few thousand at a time.
        SchemaMigration(
            sqlite: "indexBatchesByReceiveTime", postgres: (4, "index_batches_by_receive_time"),
            steps: [.createIndex("batches_on_received_at", on: "batches", ["received_at"])]),
        // Mutes and resolutions in the next version per group, and the history of every decision.
        SchemaMigration(
            sqlite: "createGroupActionTables", postgres: (5, "create_group_action_tables"),
            steps: [
                .createTable(
                    "group_actions",
                    [
                        .text("group_id", .primaryKey), .integer("muted_at", .nullable),
                        .integer("muted_until", .nullable), .integer("muted_until_total", .nullable),
                        .integer("next_version_at", .nullable), .text("next_version_through", .nullable),
                    ]),
                .createTable(
                    "group_status_events",
                    [.text("group_id"), .integer("at"), .text("action"), .text("detail", .nullable)],
                    primaryKey: ["group_id", "at", "action"], withoutRowID: true),
            ]),
        // The same rollups per minute, kept for a week: they make the edges of recent windows exact.
        SchemaMigration(
            sqlite: "createMinuteRollups", postgres: (6, "create_minute_rollups"),
            steps: Rollup.minute.firstCellTables + [
                .createIndex("endpoint_minutes_on_minute", on: "endpoint_minutes", ["minute"])
            ]),
        // Alert rules, and one claim per rule and group: who alerted about which episode, and when.
        SchemaMigration(
            sqlite: "createAlertTables", postgres: (7, "create_alert_tables"),
            steps: [
                .createTable(
                    "alert_rules",
                    [
                        .text("rule_id", .primaryKey), .text("name", .unique), .text("app_id", .nullable),
                        .text("endpoint", .nullable), .text("kind", .nullable), .text("fires_when"),
                        .integer("window_seconds"), .text("webhook"), .text("format"), .integer("created_at"),
                    ]),
                .createTable(
                    "alert_claims",
                    [
                        .text("rule_id"), .text("group_id"), .integer("episode"), .text("claim_token"),
                        .integer("alerted_at"),
                    ],
                    primaryKey: ["rule_id", "group_id"], withoutRowID: true),
            ]),
        // Imported OpenAPI contracts, each import a new version; `document` is Core's resolved ContractSpec as JSON.
        SchemaMigration(
            sqlite: "createContracts", postgres: (8, "create_contracts"),
            steps: [
                .createTable(
                    "contracts",
                    [
                        .text("contract_id", .primaryKey), .text("app_id"), .text("name"), .integer("imported_at"),
                        .text("source", .nullable), .text("openapi"), .text("title"), .text("api_version"),
                        .integer("operations"), .text("document"),
                    ]),
                .createIndex("contracts_on_app_name", on: "contracts", ["app_id", "name", "imported_at"]),
            ]),
        // Every window reads the decode counts of its hours: without this, each summary scanned every endpoint's
        // every hour kept.
        SchemaMigration(
            sqlite: "indexEndpointHoursByHour", postgres: (9, "index_endpoint_hours_by_hour"),
            steps: [
                .createIndex("endpoint_hours_on_hour", on: "endpoint_hours", ["hour", "app_id", "endpoint", "count"])
            ]
        ),
        // A cell keeps at most 1,000 install hashes; past that they fold into a HyperLogLog sketch. Each cell counts
        // the hashes it kept since its last fold in `exact_installs`. Cells written before this migration count from
        // 0 (no backfill, which would rewrite every cell of a large database): their older hashes still count
        // exactly and expire with retention.
        SchemaMigration(
            sqlite: "addInstallSketches", postgres: (10, "add_install_sketches"),
            steps: [
                .addColumn(.integer("exact_installs", .defaulting("0")), to: "group_hours"),
                .addColumn(.integer("exact_installs", .defaulting("0")), to: "group_minutes"),
                .createTable(
                    "group_hour_install_sketches", [.text("group_id"), .integer("hour"), .bytes("sketch")],
                    primaryKey: ["group_id", "hour"], withoutRowID: true),
                .createTable(
                    "group_minute_install_sketches", [.text("group_id"), .integer("minute"), .bytes("sketch")],
                    primaryKey: ["group_id", "minute"], withoutRowID: true),
            ]),
        // Gives every group an integer `group_seq` and keys every cell table by it instead of the 32-character
        // `group_id`: a window's totals read every group's cells, and integer keys make those rows a third of the
        // size and their comparisons cheap. Cells of groups that no longer exist are dropped on the way.
        SchemaMigration(
            sqlite: "keyCellsByGroupSeq", postgres: (11, "key_cells_by_group_seq"),
            steps: ([
                // SQLite cannot add a key column, so it copies the groups into a table keyed by `group_seq`, its
                // rowid; `AUTOINCREMENT` never hands out the number of a deleted group again.
                .only(
                    .sqlite,
                    [
                        .sql(
                            """
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
                            )
                            """),
                        .sql(
                            """
                            INSERT INTO groups_keyed (group_id, app_id, endpoint, path, kind, first_seen, last_seen,
                                sample_snippet, sample_message, sample_type, state, resolved_at, regressed_at, regressed_version)
                            SELECT group_id, app_id, endpoint, path, kind, first_seen, last_seen,
                                sample_snippet, sample_message, sample_type, state, resolved_at, regressed_at, regressed_version
                            FROM groups ORDER BY group_id
                            """),
                        .sql("DROP TABLE groups"),
                        .sql("ALTER TABLE groups_keyed RENAME TO groups"),
                        .createIndex("groups_on_state_last_seen", on: "groups", ["state", "last_seen"]),
                    ]),
                // PostgreSQL adds an identity column, which numbers the existing groups; `group_id` stays the key.
                .only(
                    .postgres,
                    [
                        .sql("ALTER TABLE groups ADD COLUMN group_seq BIGINT GENERATED BY DEFAULT AS IDENTITY"),
                        .sql("ALTER TABLE groups ADD CONSTRAINT groups_group_seq_key UNIQUE (group_seq)"),
                    ]),
            ] as [SchemaStep]) + CellTable.all.flatMap(\.rekeyed)
                + ([
                    .createIndex(
                        "group_hours_on_hour", on: "group_hours", ["hour", "group_seq"], including: ["count"]),
                    .createIndex(
                        "group_minutes_on_minute", on: "group_minutes", ["minute", "group_seq"], including: ["count"]),
                ] as [SchemaStep])),
        // A window's whole hours are summed from one row per group and day (``DayCounts``).
        SchemaMigration(
            sqlite: "addDayCounts", postgres: (12, "add_day_counts"),
            steps: [
                DayCounts.createTable,
                // Found by their day: PostgreSQL joins them to the groups rather than looking each group up.
                .only(.postgres, [.createIndex("group_days_on_day", on: DayCounts.table, ["day"])]),
                .dialectSQL { DayCounts.backfill(in: $0) },
            ]),
        // Day rows hold running totals, so any run of hours is two columns: written again from the cells.
        SchemaMigration(
            sqlite: "runningDayTotals", postgres: (13, "running_day_totals"),
            steps: [.sql("DELETE FROM \(DayCounts.table)"), .dialectSQL { DayCounts.backfill(in: $0) }]),
        // `/readyz` commits a write to this one row: only a write proves that ingest can commit (a read passes on a
        // PostgreSQL server that is read-only).
        SchemaMigration(
            sqlite: "createReadinessChecks", postgres: (14, "create_readiness_checks"),
            steps: [.createTable("readiness_checks", [.integer("id", .primaryKey), .integer("checked_at")])]),
        // Decode counts per app version too, so that a version's rate divides its reports by its own decodes (the
        // release check, the `version` filter). Keyed by app and version first: both read one version of one app.
        // Decodes stored before this migration have no version and are not backfilled: a version's rate over them
        // is unknown, never guessed.
        SchemaMigration(
            sqlite: "createEndpointVersionRollups", postgres: (15, "create_endpoint_version_rollups"),
            steps: Rollup.allCases.flatMap { rollup -> [SchemaStep] in
                let (table, bucket) = (rollup.endpointVersionCounts, rollup.column)
                return [
                    .createTable(
                        table,
                        [.text("app_id"), .text("version"), .text("endpoint"), .integer(bucket), .integer("count")],
                        primaryKey: ["app_id", "version", "endpoint", bucket], withoutRowID: true),
                    // Retention deletes by bucket.
                    .createIndex("\(table)_on_\(bucket)", on: table, [bucket]),
                ]
            }),
        // Dashboard sign-ins: the SHA-256 of a random session id, the read token it came from, and its expiry.
        SchemaMigration(
            sqlite: "createDashboardSessions", postgres: (16, "create_dashboard_sessions"),
            steps: [
                .createTable(
                    "dashboard_sessions",
                    [
                        .text("session_hash", .primaryKey), .text("credential_id"), .integer("created_at"),
                        .integer("expires_at"),
                    ]),
                .createIndex("dashboard_sessions_on_expires_at", on: "dashboard_sessions", ["expires_at"]),
            ]),
        // Environments (docs/wire-format.md#environments): the cells of versions, installs and install sketches and
        // the decode counts per version are kept per environment too, so that every count can be filtered by one;
        // a group's first and last report per environment; and alert rules may watch one. What was stored before
        // counts as `production`, which is where a batch without an environment counts.
        SchemaMigration(
            sqlite: "addEnvironments", postgres: (17, "add_environments"),
            steps: EnvironmentKeyedTable.all.flatMap(\.steps) + [
                .createTable(
                    "group_environments",
                    [.integer("group_seq"), .text("environment"), .integer("first_seen"), .integer("last_seen")],
                    primaryKey: ["group_seq", "environment"], withoutRowID: true),
                .sql(
                    """
                    INSERT INTO group_environments (group_seq, environment, first_seen, last_seen)
                    SELECT group_seq, 'production', first_seen, last_seen FROM groups
                    """),
                .addColumn(.text("environment", .nullable), to: "alert_rules"),
            ]),
        // PostgreSQL's log of acknowledged batches, each body as received until a replica folds it
        // (docs/ARCHITECTURE.md#ingest); SQLite keeps its log in a file of its own. `logged_at` is the server's
        // clock, so that replicas with skewed clocks agree on which batches were left by a replica that stopped.
        // A folded batch stays, marked, for a few seconds: a second delivery meanwhile conflicts with its row.
        SchemaMigration(
            sqlite: "createIngestLog", postgres: (18, "create_ingest_log"),
            steps: [
                .only(
                    .postgres,
                    [
                        .sql(
                            """
                            CREATE TABLE ingest_log (
                                seq BIGSERIAL PRIMARY KEY,
                                app_id TEXT NOT NULL,
                                batch_id TEXT NOT NULL,
                                received_at BIGINT NOT NULL,
                                logged_at BIGINT NOT NULL
                                    DEFAULT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT,
                                encoding TEXT NOT NULL,
                                body BYTEA NOT NULL,
                                folded BOOLEAN NOT NULL DEFAULT false,
                                UNIQUE (app_id, batch_id)
                            )
                            """),
                        .sql("CREATE INDEX ingest_log_unfolded ON ingest_log (seq) WHERE NOT folded"),
                    ])
            ]),
        // The replica that logged each batch, by the advisory lock it holds while it runs: other replicas leave
        // its batches to it until it stops (`ReplicaPresence`). Batches logged before have none, and are claimed
        // by age alone, as before.
        SchemaMigration(
            sqlite: "addIngestLogOwner", postgres: (19, "add_ingest_log_owner"),
            steps: [.only(.postgres, [.sql("ALTER TABLE ingest_log ADD COLUMN owner BIGINT")])]),
        // What each read token may do (``TokenScope``); ingest keys have none. Tokens made before scopes could
        // resolve and mute, so they keep that as `triage`; new ones say their scope when they are made.
        SchemaMigration(
            sqlite: "addTokenScopes", postgres: (20, "add_token_scopes"),
            steps: [
                .addColumn(.text("scope", .nullable), to: "credentials"),
                .sql("UPDATE credentials SET scope = 'triage' WHERE kind = 'read'"),
            ]),
        // How the app's decoder named the sample's keys (`reports[].key_decoding`), so that a suggested fix names the
        // property as the app spells it. Samples stored before have none and are named after their JSON keys.
        SchemaMigration(
            sqlite: "addSampleKeyDecoding", postgres: (21, "add_sample_key_decoding"),
            steps: [.addColumn(.text("sample_key_decoding", .nullable), to: "groups")]),
        // Who did what (docs/api.md#group-actions): the actor of each decision, key or token change and contract
        // import. What was done before has none.
        SchemaMigration(
            sqlite: "addActors", postgres: (22, "add_actors"),
            steps: [
                .addColumn(.text("actor", .nullable), to: "group_status_events"),
                .addColumn(.text("created_by", .nullable), to: "credentials"),
                .addColumn(.text("revoked_by", .nullable), to: "credentials"),
                .addColumn(.text("imported_by", .nullable), to: "contracts"),
            ]),
        // The issue opened for a group in the backend's tracker (docs/cli.md#issue): its address, set once, so that a
        // second request shows it instead of opening another. A table of its own keyed by group id, as
        // `group_actions` is, so that ingest's writes to `groups` never touch it; who opened it is in the history.
        SchemaMigration(
            sqlite: "addGroupIssues", postgres: (23, "add_group_issues"),
            steps: [
                .createTable(
                    "group_issues", [.text("group_id", .primaryKey), .text("url"), .integer("opened_at")])
            ]),
        // Each group's last samples (docs/api.md#group-actions): a ring of ``SampleHistory/size`` slots, the group's
        // `sample_total` commits saying which slot the next one takes; and its failures per OS version and UTC day.
        SchemaMigration(
            sqlite: "addSampleHistory", postgres: (24, "add_sample_history"),
            steps: [
                .addColumn(.integer("sample_total", .defaulting("0")), to: "groups"),
                .createTable(
                    "group_samples",
                    [
                        .integer("group_seq"), .integer("slot"), .integer("seen_at"), .text("version"), .text("os"),
                        .text("environment"), .text("snippet", .nullable),
                    ],
                    primaryKey: ["group_seq", "slot"], withoutRowID: true),
                .createIndex("group_samples_on_seen_at", on: "group_samples", ["seen_at"]),
                .createTable(
                    "group_day_os", [.integer("group_seq"), .integer("day"), .text("os"), .integer("count")],
                    primaryKey: ["group_seq", "day", "os"], withoutRowID: true),
                .createIndex("group_day_os_on_day", on: "group_day_os", ["day"]),
            ]),
    ]
}

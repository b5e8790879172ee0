import DecodeWatchStore
import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL schema, as numbered migrations that are never edited once released (add new ones).
///
/// Tables and columns mirror SQLite's (``SQLiteMigrations`` in DecodeWatchStore) so that the shared
/// statements run on both: counts in hourly rollups keyed by group, times as milliseconds since 1970
/// and hours as hour indexes, all `BIGINT`. `schema_migrations` records what ran.
enum PostgresMigrations {
    /// One step of the schema.
    struct Migration {
        /// Its number; migrations run in this order, each once.
        let version: Int64
        /// What it does.
        let name: String
        /// Its statements (the extended protocol runs one statement per query).
        let statements: [String]
    }

    static let all: [Migration] = [
        Migration(
            version: 1, name: "create_report_tables",
            statements: [
                """
                CREATE TABLE batches (
                    app_id TEXT NOT NULL,
                    batch_id TEXT NOT NULL,
                    received_at BIGINT NOT NULL,
                    reports BIGINT NOT NULL,
                    PRIMARY KEY (app_id, batch_id)
                )
                """,
                """
                CREATE TABLE groups (
                    group_id TEXT PRIMARY KEY,
                    app_id TEXT NOT NULL,
                    endpoint TEXT NOT NULL,
                    path TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    first_seen BIGINT NOT NULL,
                    last_seen BIGINT NOT NULL,
                    sample_snippet TEXT,
                    sample_message TEXT,
                    sample_type TEXT,
                    state TEXT NOT NULL DEFAULT 'open',
                    resolved_at BIGINT,
                    regressed_at BIGINT,
                    regressed_version TEXT
                )
                """,
                "CREATE INDEX groups_on_state_last_seen ON groups (state, last_seen)",
                """
                CREATE TABLE group_hours (
                    group_id TEXT NOT NULL,
                    hour BIGINT NOT NULL,
                    count BIGINT NOT NULL,
                    PRIMARY KEY (group_id, hour)
                )
                """,
                "CREATE INDEX group_hours_on_hour ON group_hours (hour, group_id) INCLUDE (count)",
                """
                CREATE TABLE group_hour_versions (
                    group_id TEXT NOT NULL,
                    hour BIGINT NOT NULL,
                    version TEXT NOT NULL,
                    count BIGINT NOT NULL,
                    PRIMARY KEY (group_id, hour, version)
                )
                """,
                """
                CREATE TABLE group_hour_expected (
                    group_id TEXT NOT NULL,
                    hour BIGINT NOT NULL,
                    expected TEXT NOT NULL,
                    count BIGINT NOT NULL,
                    PRIMARY KEY (group_id, hour, expected)
                )
                """,
                """
                CREATE TABLE group_hour_installs (
                    group_id TEXT NOT NULL,
                    hour BIGINT NOT NULL,
                    install_hash BIGINT NOT NULL,
                    PRIMARY KEY (group_id, hour, install_hash)
                )
                """,
                """
                CREATE TABLE endpoint_hours (
                    app_id TEXT NOT NULL,
                    endpoint TEXT NOT NULL,
                    hour BIGINT NOT NULL,
                    count BIGINT NOT NULL,
                    PRIMARY KEY (app_id, endpoint, hour)
                )
                """,
            ]),
        Migration(
            version: 2, name: "create_digest_runs",
            statements: [
                // One row per digest period and destination: the exactly-once record of deliveries.
                """
                CREATE TABLE digest_runs (
                    period_start BIGINT NOT NULL,
                    period_end BIGINT NOT NULL,
                    destination TEXT NOT NULL,
                    claim_token TEXT,
                    claimed_at BIGINT,
                    delivered_at BIGINT,
                    attempts BIGINT NOT NULL DEFAULT 0,
                    last_error TEXT,
                    PRIMARY KEY (period_start, period_end, destination)
                )
                """
            ]),
        Migration(
            version: 3, name: "create_credentials",
            statements: [
                // Ingest keys and read tokens; only the SHA-256 of a secret is kept.
                """
                CREATE TABLE credentials (
                    credential_id TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    app_id TEXT,
                    name TEXT,
                    secret_hash TEXT NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX credentials_on_kind ON credentials (kind, created_at)",
            ]),
        Migration(
            version: 4, name: "index_batches_by_receive_time",
            statements: [
                // Retention deletes batch ids by receive time, a few thousand at a time.
                "CREATE INDEX batches_on_received_at ON batches (received_at)"
            ]),
        Migration(
            version: 5, name: "create_group_action_tables",
            statements: [
                // Mutes and resolutions in the next version per group, and the history of every decision.
                """
                CREATE TABLE group_actions (
                    group_id TEXT PRIMARY KEY,
                    muted_at BIGINT,
                    muted_until BIGINT,
                    muted_until_total BIGINT,
                    next_version_at BIGINT,
                    next_version_through TEXT
                )
                """,
                """
                CREATE TABLE group_status_events (
                    group_id TEXT NOT NULL,
                    at BIGINT NOT NULL,
                    action TEXT NOT NULL,
                    detail TEXT,
                    PRIMARY KEY (group_id, at, action)
                )
                """,
            ]),
        Migration(
            version: 6, name: "create_minute_rollups",
            statements: [
                // The same rollups per minute, kept for a week: they make the edges of recent windows exact.
                """
                CREATE TABLE group_minutes (
                    group_id TEXT NOT NULL,
                    minute BIGINT NOT NULL,
                    count BIGINT NOT NULL,
                    PRIMARY KEY (group_id, minute)
                )
                """,
                "CREATE INDEX group_minutes_on_minute ON group_minutes (minute, group_id) INCLUDE (count)",
                """
                CREATE TABLE group_minute_versions (
                    group_id TEXT NOT NULL,
                    minute BIGINT NOT NULL,
                    version TEXT NOT NULL,
                    count BIGINT NOT NULL,
                    PRIMARY KEY (group_id, minute, version)
                )
                """,
                """
                CREATE TABLE group_minute_expected (
                    group_id TEXT NOT NULL,
                    minute BIGINT NOT NULL,
                    expected TEXT NOT NULL,
                    count BIGINT NOT NULL,
                    PRIMARY KEY (group_id, minute, expected)
                )
                """,
                """
                CREATE TABLE group_minute_installs (
                    group_id TEXT NOT NULL,
                    minute BIGINT NOT NULL,
                    install_hash BIGINT NOT NULL,
                    PRIMARY KEY (group_id, minute, install_hash)
                )
                """,
                """
                CREATE TABLE endpoint_minutes (
                    app_id TEXT NOT NULL,
                    endpoint TEXT NOT NULL,
                    minute BIGINT NOT NULL,
                    count BIGINT NOT NULL,
                    PRIMARY KEY (app_id, endpoint, minute)
                )
                """,
                "CREATE INDEX endpoint_minutes_on_minute ON endpoint_minutes (minute)",
            ]),
        Migration(
            version: 7, name: "create_alert_tables",
            statements: [
                // Alert rules, and one claim per rule and group: who alerted about which episode, and when.
                """
                CREATE TABLE alert_rules (
                    rule_id TEXT PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    app_id TEXT,
                    endpoint TEXT,
                    kind TEXT,
                    fires_when TEXT NOT NULL,
                    window_seconds BIGINT NOT NULL,
                    webhook TEXT NOT NULL,
                    format TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE alert_claims (
                    rule_id TEXT NOT NULL,
                    group_id TEXT NOT NULL,
                    episode BIGINT NOT NULL,
                    claim_token TEXT NOT NULL,
                    alerted_at BIGINT NOT NULL,
                    PRIMARY KEY (rule_id, group_id)
                )
                """,
            ]),
        Migration(
            version: 8, name: "create_contracts",
            statements: [
                // Imported OpenAPI contracts, each import a new version; `document` is Core's resolved ContractSpec as JSON.
                """
                CREATE TABLE contracts (
                    contract_id TEXT PRIMARY KEY,
                    app_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    imported_at BIGINT NOT NULL,
                    source TEXT,
                    openapi TEXT NOT NULL,
                    title TEXT NOT NULL,
                    api_version TEXT NOT NULL,
                    operations BIGINT NOT NULL,
                    document TEXT NOT NULL
                )
                """,
                "CREATE INDEX contracts_on_app_name ON contracts (app_id, name, imported_at)",
            ]),
        Migration(
            version: 9, name: "index_endpoint_hours_by_hour",
            statements: [
                // Every window reads the decode counts of its hours: without this, each summary scanned every
                // endpoint's every hour kept.
                "CREATE INDEX endpoint_hours_on_hour ON endpoint_hours (hour, app_id, endpoint, count)"
            ]),
        Migration(
            version: 10, name: "add_install_sketches",
            statements: [
                // A cell keeps at most 1,000 install hashes; past that they fold into a HyperLogLog sketch. Each
                // cell counts the hashes it kept since its last fold in `exact_installs`. Cells written before
                // this migration count from 0 (no backfill, which would rewrite every cell of a large database):
                // their older hashes still count exactly and expire with retention.
                "ALTER TABLE group_hours ADD COLUMN exact_installs BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE group_minutes ADD COLUMN exact_installs BIGINT NOT NULL DEFAULT 0",
                """
                CREATE TABLE group_hour_install_sketches (
                    group_id TEXT NOT NULL,
                    hour BIGINT NOT NULL,
                    sketch BYTEA NOT NULL,
                    PRIMARY KEY (group_id, hour)
                )
                """,
                """
                CREATE TABLE group_minute_install_sketches (
                    group_id TEXT NOT NULL,
                    minute BIGINT NOT NULL,
                    sketch BYTEA NOT NULL,
                    PRIMARY KEY (group_id, minute)
                )
                """,
            ]),
        Migration(
            version: 11, name: "key_cells_by_group_seq",
            statements: [
                // Every group gets an integer `group_seq` and every cell table is keyed by it instead of the
                // 32-character `group_id` (see SQLite's `keyCellsByGroupSeq`). Adding an identity column
                // numbers the existing groups; cells of groups that no longer exist are dropped on the way.
                "ALTER TABLE groups ADD COLUMN group_seq BIGINT GENERATED BY DEFAULT AS IDENTITY",
                "ALTER TABLE groups ADD CONSTRAINT groups_group_seq_key UNIQUE (group_seq)",
            ] + CellTable.all.flatMap { $0.rekeyed(in: .postgres) } + [
                "CREATE INDEX group_hours_on_hour ON group_hours (hour, group_seq) INCLUDE (count)",
                "CREATE INDEX group_minutes_on_minute ON group_minutes (minute, group_seq) INCLUDE (count)",
            ]),
        Migration(
            version: 12, name: "add_day_counts",
            statements: [
                // A window's whole hours are summed from one row per group and day (``DayCounts``), found by
                // their day: PostgreSQL joins them to the groups rather than looking each group up.
                DayCounts.create(in: .postgres),
                "CREATE INDEX group_days_on_day ON group_days (day)",
                DayCounts.backfill(in: .postgres),
            ]),
        Migration(
            version: 13, name: "running_day_totals",
            statements: [
                // Day rows hold running totals, so any run of hours is two columns: written again from the cells.
                "DELETE FROM \(DayCounts.table)",
                DayCounts.backfill(in: .postgres),
            ]),
        Migration(
            version: 14, name: "create_readiness_checks",
            statements: [
                // `/readyz` commits a write to this one row: a read passes on a server that is read-only.
                "CREATE TABLE readiness_checks (id BIGINT PRIMARY KEY, checked_at BIGINT NOT NULL)"
            ]),
    ]

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

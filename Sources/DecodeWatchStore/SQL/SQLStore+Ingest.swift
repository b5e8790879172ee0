import DecodeWatchCore

extension SQLStore {
    public func ingest(_ batch: BatchAggregate) async throws -> IngestOutcome {
        let statements = IngestStatements(batch, dialect: dialect)
        let step = SQLStep<IngestOutcome>.run(statements.batch) { inserted in
            guard !inserted.isEmpty else { return .done(.duplicate) }
            return try .runAll(statements.groups) { results in
                // The upsert only touches a row of the same key; a different key under the same id would be
                // a SHA-256 collision, refused rather than counted into another group (or another app).
                let written = Set(try results.joined().map { try $0.text("group_id") })
                if let id = statements.groupIDs.first(where: { !written.contains($0) }) {
                    throw StoreError.groupConflict(id)
                }
                return try .runAll(statements.rollups) { _ in .done(.stored) }
            }
        }
        return try await perform(step, access: .write)
    }
}

/// The statements that store one folded batch, in the order they run in its transaction.
///
/// Every count is an addition saturating at ``StoredCount/max``, so writers sharing a database stay
/// exact. Rows are written sorted (groups by id, then bucket, then value) and tables in a fixed order,
/// so concurrent PostgreSQL transactions take their row locks in one order and never deadlock.
/// Rows go in multi-row `VALUES`, a few round trips per batch rather than one per row.
struct IngestStatements {
    /// Records the batch id; returns no row when it was stored before (then nothing else runs).
    let batch: SQLStatement
    /// Upserts the groups; each returns the ids it wrote.
    let groups: [SQLStatement]
    /// The ids the group upserts must return, sorted.
    let groupIDs: [String]
    /// The hourly and per-minute rollups, installs and decode counts.
    let rollups: [SQLStatement]

    /// Rows per statement: at most 10 columns each, so a statement stays under SQLite's historical
    /// limit of 999 parameters.
    static let rowsPerStatement = 90

    init(_ batch: BatchAggregate, dialect: SQLDialect) {
        let p = dialect.parameter
        self.batch = SQLStatement(
            """
            INSERT INTO batches (app_id, batch_id, received_at, reports)
            VALUES (\(dialect.parameters(from: 1, count: 4)))
            ON CONFLICT (app_id, batch_id) DO NOTHING RETURNING batch_id
            """,
            [
                .text(batch.appID), .text(batch.batchID), SQLValue(batch.receivedAt),
                .integer(Int64(batch.acceptedReports)),
            ])

        let groups = batch.groups.map { (id: $0.key.id, delta: $0) }.sorted { $0.id < $1.id }
        groupIDs = groups.map(\.id)
        // A report that occurred after the group was resolved regresses it, with the version that brought it back.
        let regresses = "groups.state = 'resolved' AND excluded.last_seen > groups.resolved_at"
        let newer = "excluded.last_seen >= groups.last_seen"
        self.groups = Self.insert(
            into: "groups",
            columns: [
                "group_id", "app_id", "endpoint", "path", "kind", "first_seen", "last_seen", "sample_snippet",
                "sample_message", "sample_type",
            ],
            rows: groups.map { id, delta in
                [
                    .text(id), .text(batch.appID), .text(delta.key.endpoint), .text(delta.key.path),
                    .text(delta.key.kind.rawValue), SQLValue(delta.firstSeen), SQLValue(delta.lastSeen),
                    SQLValue(delta.sample.snippet), SQLValue(delta.sample.message), SQLValue(delta.sample.type),
                ]
            },
            fixed: [SQLValue(batch.receivedAt), .text(batch.version)], dialect: dialect,
            then: """
                ON CONFLICT (group_id) DO UPDATE SET
                    first_seen = \(dialect.least("groups.first_seen", "excluded.first_seen")),
                    last_seen = \(dialect.greatest("groups.last_seen", "excluded.last_seen")),
                    sample_snippet = CASE WHEN \(newer) THEN excluded.sample_snippet ELSE groups.sample_snippet END,
                    sample_message = CASE WHEN \(newer) THEN excluded.sample_message ELSE groups.sample_message END,
                    sample_type = CASE WHEN \(newer) THEN excluded.sample_type ELSE groups.sample_type END,
                    regressed_at = CASE WHEN \(regresses) THEN \(p(1)) ELSE groups.regressed_at END,
                    regressed_version = CASE WHEN \(regresses) THEN \(p(2)) ELSE groups.regressed_version END,
                    state = CASE WHEN \(regresses) THEN 'regressed' ELSE groups.state END
                WHERE groups.app_id = excluded.app_id AND groups.endpoint = excluded.endpoint
                    AND groups.path = excluded.path AND groups.kind = excluded.kind
                RETURNING group_id
                """)

        rollups = Rollup.allCases.flatMap { Self.rollups(of: batch, groups: groups, in: $0, dialect: dialect) }
    }

    /// The upserts of one resolution's rollups: counts, versions, installs, expected types and decodes.
    private static func rollups(
        of batch: BatchAggregate, groups: [(id: String, delta: GroupDelta)], in rollup: Rollup, dialect: SQLDialect
    ) -> [SQLStatement] {
        var counts: [[SQLValue]] = []
        var versions: [[SQLValue]] = []
        var installs: [[SQLValue]] = []
        var expected: [[SQLValue]] = []
        for (id, delta) in groups {
            var buckets: [Int64: Int] = [:]
            for (minute, count) in delta.minutes {
                buckets[rollup.bucket(ofMinute: minute), default: 0] =
                    buckets[rollup.bucket(ofMinute: minute), default: 0].addingSaturating(count)
            }
            for (bucket, count) in buckets.sorted(by: { $0.key < $1.key }) {
                counts.append([.text(id), .integer(bucket), .integer(StoredCount.clamp(count))])
                versions.append([.text(id), .integer(bucket), .text(batch.version), .integer(StoredCount.clamp(count))])
                if let install = batch.installHash {
                    installs.append([.text(id), .integer(bucket), .integer(install)])
                }
            }
            var cells: [MinuteValue: Int] = [:]
            for (cell, count) in delta.expected {
                let key = MinuteValue(minute: rollup.bucket(ofMinute: cell.minute), value: cell.value)
                cells[key, default: 0] = cells[key, default: 0].addingSaturating(count)
            }
            for (cell, count) in cells.sorted(by: { ($0.key.minute, $0.key.value) < ($1.key.minute, $1.key.value) }) {
                expected.append([
                    .text(id), .integer(cell.minute), .text(cell.value), .integer(StoredCount.clamp(count)),
                ])
            }
        }
        let decodes = batch.decodes.filter { $0.count > 0 }.sorted { $0.endpoint < $1.endpoint }.map {
            entry -> [SQLValue] in
            [
                .text(batch.appID), .text(entry.endpoint), .integer(rollup.bucket(ofMinute: batch.decodesMinute)),
                .integer(StoredCount.clamp(entry.count)),
            ]
        }
        let bucket = rollup.column
        return add(into: rollup.groupCounts, columns: ["group_id", bucket], rows: counts, dialect: dialect)
            + add(into: rollup.versions, columns: ["group_id", bucket, "version"], rows: versions, dialect: dialect)
            + insert(
                into: rollup.installs, columns: ["group_id", bucket, "install_hash"], rows: installs,
                dialect: dialect, then: "ON CONFLICT (group_id, \(bucket), install_hash) DO NOTHING")
            + add(into: rollup.expected, columns: ["group_id", bucket, "expected"], rows: expected, dialect: dialect)
            + add(
                into: rollup.endpointCounts, columns: ["app_id", "endpoint", bucket], rows: decodes, dialect: dialect)
    }

    /// Upserts rows of `key columns…, count`, adding each count to the stored one.
    private static func add(into table: String, columns key: [String], rows: [[SQLValue]], dialect: SQLDialect)
        -> [SQLStatement]
    {
        insert(
            into: table, columns: key + ["count"], rows: rows, dialect: dialect,
            then: """
                ON CONFLICT (\(key.joined(separator: ", "))) DO UPDATE
                SET count = \(dialect.least("\(table).count + excluded.count", String(StoredCount.max)))
                """)
    }

    /// Inserts rows in statements of at most ``rowsPerStatement`` rows, in order.
    /// - Parameters:
    ///   - fixed: arguments bound before the rows' (parameters 1…), for `then` to use.
    ///   - then: the `ON CONFLICT` clause and whatever follows it.
    private static func insert(
        into table: String, columns: [String], rows: [[SQLValue]], fixed: [SQLValue] = [], dialect: SQLDialect,
        then: String
    ) -> [SQLStatement] {
        stride(from: 0, to: rows.count, by: rowsPerStatement).map { start in
            let chunk = rows[start..<min(start + rowsPerStatement, rows.count)]
            let values = chunk.indices.map { row in
                "(\(dialect.parameters(from: fixed.count + 1 + (row - start) * columns.count, count: columns.count)))"
            }
            return SQLStatement(
                """
                INSERT INTO \(table) (\(columns.joined(separator: ", ")))
                VALUES \(values.joined(separator: ", "))
                \(then)
                """,
                fixed + chunk.flatMap { $0 })
        }
    }
}

import DecodeWatchCore
import Foundation

/// The statements that store the batches of one commit, folded together, in the order they run in its
/// transaction.
///
/// Batches that arrive together touch the same groups and buckets: folded first, they write each row
/// once. Every count is an addition saturating at ``StoredCount/max``, so writers sharing a database stay
/// exact. Rows are written sorted (batches, then groups by id, then bucket, then value) and tables in a
/// fixed order (per resolution: installs, counts, folds into sketches, versions, expected types, decodes,
/// decodes per version, and for hours the day rows), so concurrent PostgreSQL transactions take their row locks in one order and
/// never deadlock. Rows go in multi-row `VALUES`, a few round trips per commit rather than one per row.
struct IngestStatements {
    /// Upserts the groups; each returns the id, `group_seq`, state and resolution time of the row it wrote.
    let groups: [SQLStatement]
    /// The ids the group upserts must return, sorted.
    let groupIDs: [String]
    /// Each resolution's rollup rows, folded and sorted before the transaction: hourly first, then per minute.
    private let rollupRows: [RollupRows]
    /// Each group's first and last report per environment, by the group's position among ``groupIDs``, sorted.
    private let environmentRows: [(group: Int, environment: String, first: Date, last: Date)]
    /// The latest report of each group in the commit, and the version of the batch that sent it.
    private let latest: [String: (seen: Date, version: String)]
    /// The commit's sample of each group, for its sample history, by the group's position among ``groupIDs``.
    private let samples: [GroupRow]
    /// Failures per group (by position among ``groupIDs``), UTC day and OS version, sorted.
    private let osRows: [(key: OSDay, count: Int)]
    /// When the last batch of the commit was received: the time a regression is recorded at.
    private let receivedAt: Date
    private let dialect: SQLDialect

    /// Records the batch ids; returns `app_id, batch_id` of each batch not stored before (then only those
    /// are folded and written).
    static func record(_ batches: [BatchAggregate], dialect: SQLDialect) -> [SQLStatement] {
        insert(
            into: "batches", columns: ["app_id", "batch_id", "received_at", "reports"],
            rows: batches.sorted {
                (ExactText($0.appID), ExactText($0.batchID)) < (ExactText($1.appID), ExactText($1.batchID))
            }.map { batch in
                [
                    .text(batch.appID), .text(batch.batchID), SQLValue(batch.receivedAt),
                    .integer(Int64(batch.acceptedReports)),
                ]
            }, dialect: dialect, then: "ON CONFLICT (app_id, batch_id) DO NOTHING RETURNING app_id, batch_id")
    }

    /// Folds the batches of a commit, each stored for the first time.
    init(_ batches: [BatchAggregate], dialect: SQLDialect) {
        self.dialect = dialect
        receivedAt = batches.map(\.receivedAt).max() ?? Date()
        let commit = CommitGroups(batches)
        groupIDs = commit.ids
        samples = commit.rows
        latest = Dictionary(uniqueKeysWithValues: zip(commit.ids, commit.rows).map { ($0, ($1.lastSeen, $1.version)) })
        groups = Self.upsertGroups(ids: commit.ids, rows: commit.rows, dialect: dialect)
        // The hourly rows are the minute rows added up by hour: far fewer than the batches' deltas, and already
        // in order but for the values within an hour.
        let minutes = RollupRows(of: batches, groups: commit.positions, values: CommitValues(batches))
        rollupRows = [minutes.byHour(), minutes]
        environmentRows = Self.environmentRows(of: batches, groups: commit.positions)
        osRows = Self.osRows(of: batches, groups: commit.positions)
    }

    /// Upserts the groups, each returning its id, `group_seq`, state, resolution time and sample count.
    /// - Parameters:
    ///   - ids: the groups' ids, sorted.
    ///   - rows: their rows, in the same order.
    private static func upsertGroups(ids: [String], rows: [GroupRow], dialect: SQLDialect) -> [SQLStatement] {
        let newer = "excluded.last_seen >= groups.last_seen"
        return insert(
            into: "groups",
            columns: [
                "group_id", "app_id", "endpoint", "path", "kind", "first_seen", "last_seen", "sample_snippet",
                "sample_message", "sample_type", "sample_key_decoding", "sample_total",
            ],
            rows: zip(ids, rows).map { id, row in
                let sample = row.sample
                return [
                    .text(id), .text(row.key.app), .text(row.key.endpoint), .text(row.key.path),
                    .text(row.key.kind.rawValue), SQLValue(row.firstSeen), SQLValue(row.lastSeen),
                    SQLValue(sample.snippet), SQLValue(sample.message), SQLValue(sample.type),
                    SQLValue(sample.keyDecoding?.rawValue), .integer(1),
                ]
            },
            dialect: dialect,
            then: """
                ON CONFLICT (group_id) DO UPDATE SET
                    first_seen = \(dialect.least("groups.first_seen", "excluded.first_seen")),
                    last_seen = \(dialect.greatest("groups.last_seen", "excluded.last_seen")),
                    sample_snippet = CASE WHEN \(newer) THEN excluded.sample_snippet ELSE groups.sample_snippet END,
                    sample_message = CASE WHEN \(newer) THEN excluded.sample_message ELSE groups.sample_message END,
                    sample_type = CASE WHEN \(newer) THEN excluded.sample_type ELSE groups.sample_type END,
                    sample_key_decoding = CASE WHEN \(newer) THEN excluded.sample_key_decoding
                        ELSE groups.sample_key_decoding END,
                    sample_total = groups.sample_total + 1
                WHERE groups.app_id = excluded.app_id AND groups.endpoint = excluded.endpoint
                    AND groups.path = excluded.path AND groups.kind = excluded.kind
                RETURNING group_id, group_seq, state, resolved_at, sample_total
                """)
    }

    /// Each group's first and last report per environment, sorted.
    /// - Parameter groups: the position of each delta's group (``CommitGroups/positions``).
    private static func environmentRows(of batches: [BatchAggregate], groups: [[Int]])
        -> [(group: Int, environment: String, first: Date, last: Date)]
    {
        var seen: [GroupEnvironment: (first: Date, last: Date)] = [:]
        for batch in batches.indices {
            for delta in batches[batch].groups.indices {
                let key = GroupEnvironment(group: groups[batch][delta], environment: batches[batch].environment)
                let (first, last) = (batches[batch].groups[delta].firstSeen, batches[batch].groups[delta].lastSeen)
                seen[key] = seen[key].map { (min($0.first, first), max($0.last, last)) } ?? (first, last)
            }
        }
        return seen.sorted { $0.key < $1.key }.map {
            ($0.key.group, $0.key.environment, $0.value.first, $0.value.last)
        }
    }

    /// Failures per group, UTC day and OS version, sorted.
    /// - Parameter groups: the position of each delta's group (``CommitGroups/positions``).
    private static func osRows(of batches: [BatchAggregate], groups: [[Int]]) -> [(key: OSDay, count: Int)] {
        var failures: [OSDay: Int] = [:]
        for batch in batches.indices {
            for delta in batches[batch].groups.indices {
                for count in batches[batch].groups[delta].counts {
                    let key = OSDay(group: groups[batch][delta], day: count.minute / 1440, os: batches[batch].os)
                    failures[key, default: 0].addSaturating(count.count)
                }
            }
        }
        return failures.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Each group's sample of this commit into the slot of its ring that its `sample_total` (as the group upserts
    /// returned it) names, and its failures per UTC day and OS version.
    /// - Parameters:
    ///   - seqs: the `group_seq` the group upserts returned for each of ``groupIDs``, in its order.
    ///   - totals: the `sample_total` they returned, likewise.
    func history(seqs: [Int64], totals: [Int64]) -> [SQLStatement] {
        let sampleRows = samples.indices.map { position -> [SQLValue] in
            let row = samples[position]
            let slot = (max(1, totals[position]) - 1) % Int64(SampleHistory.size)
            return [
                .integer(seqs[position]), .integer(slot), SQLValue(row.lastSeen), .text(row.version), .text(row.os),
                .text(row.environment), SQLValue(row.sample.snippet),
            ]
        }
        let replaced = ["seen_at", "version", "os", "environment", "snippet"].map { "\($0) = excluded.\($0)" }
        let os = "group_day_os"
        return Self.insert(
            into: "group_samples",
            columns: ["group_seq", "slot", "seen_at", "version", "os", "environment", "snippet"],
            rows: sampleRows, dialect: dialect,
            then: "ON CONFLICT (group_seq, slot) DO UPDATE SET \(replaced.joined(separator: ", "))")
            + Self.insert(
                into: os, columns: ["group_seq", "day", "os", "count"],
                rows: osRows.map {
                    [.integer(seqs[$0.key.group]), .integer($0.key.day), .text($0.key.os), .integer(Int64($0.count))]
                },
                dialect: dialect,
                then: """
                    ON CONFLICT (group_seq, day, os) DO UPDATE
                    SET count = \(dialect.least("\(os).count + excluded.count", String(StoredCount.max)))
                    """)
    }

    /// Upserts each group's first and last report per environment, from the `group_seq` the group upserts returned
    /// for each of ``groupIDs``, in its order.
    func environments(seqs: [Int64]) -> [SQLStatement] {
        let table = "group_environments"
        return Self.insert(
            into: table, columns: ["group_seq", "environment", "first_seen", "last_seen"],
            rows: environmentRows.map {
                [.integer(seqs[$0.group]), .text($0.environment), SQLValue($0.first), SQLValue($0.last)]
            },
            dialect: dialect,
            then: """
                ON CONFLICT (group_seq, environment) DO UPDATE SET
                    first_seen = \(dialect.least("\(table).first_seen", "excluded.first_seen")),
                    last_seen = \(dialect.greatest("\(table).last_seen", "excluded.last_seen"))
                """)
    }

    /// The updates that mark regressed the groups that a report occurring after their resolution
    /// brought back, with the version that brought it, from the rows the group upserts returned. The
    /// rows are already locked by those upserts, so this takes no lock in a new order.
    func regressions(_ upserted: [SQLRecord]) throws -> [SQLStatement] {
        try upserted.compactMap { row in
            let id = try row.text("group_id")
            guard try row.text("state") == GroupLifecycle.State.resolved.rawValue,
                let resolvedAt = try row.optionalDate("resolved_at"), let latest = latest[id], latest.seen > resolvedAt
            else { return nil }
            return dialect.statement(
                """
                UPDATE groups SET state = 'regressed', regressed_at = \(bind: SQLValue(receivedAt)),
                    regressed_version = \(bind: .text(latest.version))
                WHERE group_id = \(bind: .text(id)) AND state = 'resolved'
                """)
        }
    }

    /// Writes the hourly and per-minute rollups, installs and decode counts, one resolution after the other: how
    /// many installs each cell gained decides which cells fold into sketches (``CellWrites``).
    /// - Parameters:
    ///   - seqs: the `group_seq` the group upserts returned for each of ``groupIDs``, in its order.
    ///   - committed: the install rows known to be stored, which are left out.
    ///   - now: the time that says which cells are recent enough to be left out.
    ///   - tx: the write transaction.
    /// - Returns: the install rows written, for ``CommittedInstalls/remember(_:in:now:)`` once the transaction
    ///   committed.
    func rollups(
        seqs: [Int64], leavingOut committed: CommittedInstalls, now: Date, in tx: any SQLTransaction
    ) throws -> [Rollup: [InstallRow]] {
        let writes = rollupRows.map { $0.writes(seqs: seqs, dialect: dialect, leavingOut: committed, now: now) }
        for writes in writes {
            try writes.cells.run(in: tx)
            _ = try tx.run(writes.others)
        }
        return Dictionary(uniqueKeysWithValues: writes.map { ($0.cells.rollup, $0.cells.installs) })
    }
}

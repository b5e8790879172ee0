import DecodeWatchCore
import Foundation
import Synchronization

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
        // A group's id is a SHA-256: worked out once per group of the commit (batches arriving together
        // repeat the same groups), for the fold and both resolutions.
        // Batches and deltas are read in place, by index: a copy of a delta retains each of its strings and
        // dictionaries, and iterating (`zip`, `map`) copies every element.
        var idOfKey: [GroupKey: String] = [:]
        let ids = batches.indices.map { batch in
            batches[batch].groups.indices.map { delta in
                let key = batches[batch].groups[delta].key
                if let id = idOfKey[key] { return id }
                let id = key.id
                idOfKey[key] = id
                return id
            }
        }
        var folded: [String: GroupRow] = [:]
        for batch in batches.indices {
            for delta in batches[batch].groups.indices {
                folded[ids[batch][delta], default: GroupRow(batches[batch].groups[delta], of: batches[batch])]
                    .fold(batches[batch].groups[delta], of: batches[batch])
            }
        }
        let groups = folded.sorted { $0.key < $1.key }
        let sortedIDs = groups.map(\.key)
        groupIDs = sortedIDs
        latest = folded.mapValues { ($0.lastSeen, $0.version) }
        samples = groups.map(\.value)
        let newer = "excluded.last_seen >= groups.last_seen"
        self.groups = Self.insert(
            into: "groups",
            columns: [
                "group_id", "app_id", "endpoint", "path", "kind", "first_seen", "last_seen", "sample_snippet",
                "sample_message", "sample_type", "sample_key_decoding", "sample_total",
            ],
            rows: groups.map { id, row in
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
        // Cells name a group by its position among the sorted ids: they hash and sort as integers, in the
        // order of the ids, until the group upserts return each group's `group_seq`.
        let position = Dictionary(uniqueKeysWithValues: sortedIDs.enumerated().map { ($1, $0) })
        let positions = ids.map { $0.map { position[$0]! } }
        // The hourly rows are the minute rows added up by hour: far fewer than the batches' deltas, and already
        // in order but for the values within an hour.
        let minutes = RollupRows(of: batches, groups: positions, values: CommitValues(batches))
        rollupRows = [minutes.byHour(), minutes]
        var seen: [GroupEnvironment: (first: Date, last: Date)] = [:]
        for batch in batches.indices {
            for delta in batches[batch].groups.indices {
                let key = GroupEnvironment(group: positions[batch][delta], environment: batches[batch].environment)
                let (first, last) = (batches[batch].groups[delta].firstSeen, batches[batch].groups[delta].lastSeen)
                seen[key] = seen[key].map { (min($0.first, first), max($0.last, last)) } ?? (first, last)
            }
        }
        environmentRows = seen.sorted { $0.key < $1.key }.map {
            ($0.key.group, $0.key.environment, $0.value.first, $0.value.last)
        }
        var failures: [OSDay: Int] = [:]
        for batch in batches.indices {
            for delta in batches[batch].groups.indices {
                for count in batches[batch].groups[delta].counts {
                    let key = OSDay(
                        group: positions[batch][delta], day: count.minute / 1440, os: batches[batch].os)
                    failures[key, default: 0].addSaturating(count.count)
                }
            }
        }
        osRows = failures.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
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

    /// The hourly and per-minute rollups, installs and decode counts: a chain, because how many installs
    /// each cell gained decides which cells fold into sketches (``CellWrites``). It ends with the install rows it
    /// wrote, for ``CommittedInstalls/remember(_:in:now:)`` once the transaction committed.
    /// - Parameters:
    ///   - seqs: the `group_seq` the group upserts returned for each of ``groupIDs``, in its order.
    ///   - committed: the install rows known to be stored, which are left out.
    ///   - now: the time that says which cells are recent enough to be left out.
    func rollups(
        seqs: [Int64], leavingOut committed: CommittedInstalls, now: Date
    ) throws -> SQLStep<[Rollup: [InstallRow]]> {
        let writes = rollupRows.map { $0.writes(seqs: seqs, dialect: dialect, leavingOut: committed, now: now) }
        let written = Dictionary(uniqueKeysWithValues: writes.map { ($0.cells.rollup, $0.cells.installs) })
        // Built from the last resolution back, so that each one's chain ends by starting the next.
        return try writes.reversed().reduce(SQLStep.done(written)) { next, writes in
            try writes.cells.step().then { _ in try .runAll(writes.others) { _ in next } }
        }
    }

    /// Upserts rows of `key columns…, counts…`, adding each count to the stored one, up to `cap`.
    static func add(
        into table: String, columns key: [String], counts: [String] = ["count"], rows: [[SQLValue]],
        cap: Int64 = StoredCount.max, dialect: SQLDialect
    ) -> [SQLStatement] {
        let sums = counts.map { column in
            "\(column) = \(dialect.least("\(table).\(column) + excluded.\(column)", String(cap)))"
        }
        return insert(
            into: table, columns: key + counts, rows: rows, dialect: dialect,
            then: """
                ON CONFLICT (\(key.joined(separator: ", "))) DO UPDATE
                SET \(sums.joined(separator: ", "))
                """)
    }

    /// Inserts rows in statements of at most ``SQLDialect/rowsPerInsert(columns:)`` rows, in order, sized so that
    /// their texts recur (``SQLDialect/statementSizes(rows:max:)``).
    /// - Parameter then: the `ON CONFLICT` clause and whatever follows it.
    static func insert(
        into table: String, columns: [String], rows: [[SQLValue]], dialect: SQLDialect, then: String
    ) -> [SQLStatement] {
        var start = 0
        return dialect.statementSizes(rows: rows.count, max: dialect.rowsPerInsert(columns: columns.count)).map {
            size in
            let chunk = rows[start..<start + size]
            start += size
            return InsertShape(table: table, columns: columns, then: then, rows: size, dialect: dialect).statement(
                chunk)
        }
    }
}

/// What a multi-row insert's text depends on. Every commit writes the same few texts, each thousands of
/// characters long: they are written once per process (``text``) instead of once per commit, which took 3 % of
/// the collector's CPU at full load.
private struct InsertShape: Hashable {
    let table: String
    let columns: [String]
    let then: String
    let rows: Int
    let dialect: SQLDialect

    /// The texts written so far: a few per table, since the ingest's tables, columns and clauses are fixed and
    /// row counts are at most ``SQLDialect/rowsPerInsert(columns:)`` in falling powers of two.
    private static let written = Mutex<[InsertShape: String]>([:])

    /// The statement inserting these rows, `rows` of them, each of `columns` values: the text is built once per
    /// shape, by a builder, and the rows' values bound in the order it binds them.
    func statement(_ values: ArraySlice<[SQLValue]>) -> SQLStatement {
        if let text = Self.written.withLock({ $0[self] }) {
            return SQLStatement(text, values.flatMap { $0 }, isReused: true)
        }
        var sql = SQLBuilder(dialect)
        sql.append("INSERT INTO \(table) (\(columns.joined(separator: ", ")))\nVALUES ")
        for (index, row) in values.enumerated() { sql.append("\(index == 0 ? "" : ", ")(\(bindInOrder: row))") }
        sql.append("\n\(then)")
        let statement = sql.statement(isReused: true)
        Self.written.withLock { $0[self] = statement.sql }
        return statement
    }
}

/// One group's row as the commit writes it: its deltas from every batch folded.
private struct GroupRow {
    let key: GroupKey
    var firstSeen: Date
    var lastSeen: Date
    /// The latest report's details, redacted.
    private(set) var sample: Sample
    /// The version of the batch with the latest report.
    var version: String
    /// The OS version and environment of that batch.
    var os: String
    var environment: String

    init(_ delta: GroupDelta, of batch: BatchAggregate) {
        key = delta.key
        firstSeen = delta.firstSeen
        lastSeen = delta.lastSeen
        sample = delta.sample
        version = batch.version
        os = batch.os
        environment = batch.environment
    }

    /// Adds a later batch's delta: the latest report's sample wins, a later batch on ties, as in one batch.
    mutating func fold(_ delta: GroupDelta, of batch: BatchAggregate) {
        firstSeen = min(firstSeen, delta.firstSeen)
        guard delta.lastSeen >= lastSeen else { return }
        lastSeen = delta.lastSeen
        sample = delta.sample
        version = batch.version
        os = batch.os
        environment = batch.environment
    }
}

/// A group (by its position among a commit's groups), a UTC day and an OS version: a key of `group_day_os`.
private struct OSDay: Hashable, Comparable {
    let group: Int
    let day: Int64
    let os: String

    static func < (a: OSDay, b: OSDay) -> Bool {
        (a.group, a.day, ExactText(a.os)) < (b.group, b.day, ExactText(b.os))
    }
}

/// A rollup row's key: a group (by its position among the commit's sorted ids) or, for decode counts, an
/// app (and for decode counts per version, an ``AppVersion``); a bucket; for the cells kept per environment, an
/// environment; and a value (by its position among the commit's sorted values of its kind) or an install hash.
/// Keys compare as integers, in the order of the ids, buckets, environments and values they stand for.
private struct Cell<ID: Comparable & Sendable>: Comparable, Sendable {
    let id: ID
    let bucket: Int64
    /// The environment's position among the commit's, for the cells kept per environment; 0 for the others.
    var environment = 0
    var value = 0
    var install: Int64 = 0

    init(_ id: ID, _ bucket: Int64, environment: Int = 0, _ value: Int = 0, install: Int64 = 0) {
        self.id = id
        self.bucket = bucket
        self.environment = environment
        self.value = value
        self.install = install
    }

    static func < (a: Cell, b: Cell) -> Bool {
        (a.id, a.bucket, a.environment, a.value, a.install) < (b.id, b.bucket, b.environment, b.value, b.install)
    }
}

/// A group (by its position among the commit's sorted ids) and an environment, ordered as the id and name are.
private struct GroupEnvironment: Hashable, Comparable {
    let group: Int
    let environment: String

    static func < (a: GroupEnvironment, b: GroupEnvironment) -> Bool {
        (a.group, ExactText(a.environment)) < (b.group, ExactText(b.environment))
    }
}

/// An app and one of the commit's versions (by its position among them): the key of decode counts per version,
/// ordered as the app and version it stands for.
private struct AppVersion: Comparable, Sendable {
    let app: String
    let version: Int

    static func < (a: AppVersion, b: AppVersion) -> Bool { (a.app, a.version) < (b.app, b.version) }
}

/// The distinct strings of one kind in a commit (versions, expected types, endpoints), sorted, so that a
/// string's position orders cells as the string would.
/// Values are told apart and sorted by their bytes (``ExactText``), as the databases tell them apart: two versions
/// that are only canonically equivalent are two rows.
private struct SortedValues: Sendable {
    let values: [String]
    private let positions: [ExactText: Int]

    init(_ values: some Sequence<String>) {
        let sorted = Set(values.lazy.map(ExactText.init)).sorted()
        self.values = sorted.map(\.text)
        positions = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0) })
    }

    /// The position of a string of the commit.
    subscript(_ value: String) -> Int { positions[ExactText(value)]! }
}

/// A commit's versions, environments, expected types and endpoints, which the cells of both resolutions name by position.
private struct CommitValues: Sendable {
    let versions: SortedValues
    let environments: SortedValues
    let expected: SortedValues
    let endpoints: SortedValues

    init(_ batches: [BatchAggregate]) {
        versions = SortedValues(batches.map(\.version))
        environments = SortedValues(batches.map(\.environment))
        var expected: [String] = []
        for batch in batches.indices {
            for delta in batches[batch].groups.indices {
                for entry in batches[batch].groups[delta].counts {
                    if let value = entry.expected { expected.append(value) }
                }
            }
        }
        self.expected = SortedValues(expected)
        endpoints = SortedValues(batches.lazy.flatMap(\.decodes).map(\.endpoint))
    }
}

/// Adds up the counts of equal cells by sorting them: the rows go out sorted anyway. Adding them up in
/// dictionaries and then sorting their keys took 6 % of the collector's CPU at full load, most of it hashing;
/// building the rollup rows this way takes 3.6 %.
private func tally<ID>(_ entries: [(cell: Cell<ID>, count: Int)]) -> [(cell: Cell<ID>, count: Int)] {
    var result: [(cell: Cell<ID>, count: Int)] = []
    result.reserveCapacity(entries.count)
    for entry in entries.sorted(by: { $0.cell < $1.cell }) {
        if let last = result.last, last.cell == entry.cell {
            result[result.count - 1].count = last.count.addingSaturating(entry.count)
        } else {
            result.append(entry)
        }
    }
    return result
}

/// One resolution's rollup rows of a commit: every batch's counts, versions, installs, expected types and
/// decodes added up per cell and sorted, each group named by its position among the commit's sorted ids. The
/// hourly rows are the per-minute ones added up again (``byHour()``).
private struct RollupRows: Sendable {
    let rollup: Rollup
    let counts: [(cell: Cell<Int>, count: Int)]
    let versions: [(cell: Cell<Int>, count: Int)]
    let installs: [Cell<Int>]
    let expected: [(cell: Cell<Int>, count: Int)]
    let decodes: [(cell: Cell<String>, count: Int)]
    /// The same decode counts under the version of their batch.
    let versionDecodes: [(cell: Cell<AppVersion>, count: Int)]
    /// The strings the cells name by position.
    let values: CommitValues

    /// The per-minute rows of a commit.
    /// - Parameters:
    ///   - groups: the position among the commit's sorted ids of each delta's group, for each batch.
    ///   - values: the commit's strings, shared by both resolutions.
    init(of batches: [BatchAggregate], groups: [[Int]], values: CommitValues) {
        var counts: [(cell: Cell<Int>, count: Int)] = []
        var versions: [(cell: Cell<Int>, count: Int)] = []
        var installs: [Cell<Int>] = []
        var expected: [(cell: Cell<Int>, count: Int)] = []
        var decodes: [(cell: Cell<String>, count: Int)] = []
        var versionDecodes: [(cell: Cell<AppVersion>, count: Int)] = []
        // Read in place, by index, as in ``IngestStatements/init(_:dialect:)``.
        for batch in batches.indices {
            let version = values.versions[batches[batch].version]
            let environment = values.environments[batches[batch].environment]
            let install = batches[batch].installHash
            for delta in batches[batch].groups.indices {
                let id = groups[batch][delta]
                for entry in batches[batch].groups[delta].counts {
                    counts.append((Cell(id, entry.minute), entry.count))
                    versions.append((Cell(id, entry.minute, environment: environment, version), entry.count))
                    if let install {
                        installs.append(Cell(id, entry.minute, environment: environment, install: install))
                    }
                    if let value = entry.expected {
                        expected.append((Cell(id, entry.minute, values.expected[value]), entry.count))
                    }
                }
            }
            let minute = batches[batch].decodesMinute
            let app = AppVersion(app: batches[batch].appID, version: version)
            for entry in batches[batch].decodes where entry.count > 0 {
                let endpoint = values.endpoints[entry.endpoint]
                decodes.append((Cell(batches[batch].appID, minute, endpoint), entry.count))
                versionDecodes.append((Cell(app, minute, environment: environment, endpoint), entry.count))
            }
        }
        self.init(
            rollup: .minute, values: values, counts: counts, versions: versions, installs: installs,
            expected: expected, decodes: decodes, versionDecodes: versionDecodes)
    }

    /// Adds up and sorts a resolution's rows.
    private init(
        rollup: Rollup, values: CommitValues, counts: [(cell: Cell<Int>, count: Int)],
        versions: [(cell: Cell<Int>, count: Int)], installs: [Cell<Int>], expected: [(cell: Cell<Int>, count: Int)],
        decodes: [(cell: Cell<String>, count: Int)], versionDecodes: [(cell: Cell<AppVersion>, count: Int)]
    ) {
        self.rollup = rollup
        self.values = values
        self.counts = tally(counts)
        self.versions = tally(versions)
        self.installs = installs.sorted().reduce(into: []) { kept, cell in
            if kept.last != cell { kept.append(cell) }
        }
        self.expected = tally(expected)
        self.decodes = tally(decodes)
        self.versionDecodes = tally(versionDecodes)
    }

    /// These per-minute rows added up by hour.
    func byHour() -> RollupRows {
        func hourly<ID>(_ rows: [(cell: Cell<ID>, count: Int)]) -> [(cell: Cell<ID>, count: Int)] {
            rows.map {
                (
                    Cell($0.cell.id, Minute.hour(of: $0.cell.bucket), environment: $0.cell.environment, $0.cell.value),
                    $0.count
                )
            }
        }
        return RollupRows(
            rollup: .hour, values: values, counts: hourly(counts), versions: hourly(versions),
            installs: installs.map {
                Cell($0.id, Minute.hour(of: $0.bucket), environment: $0.environment, install: $0.install)
            },
            expected: hourly(expected), decodes: hourly(decodes), versionDecodes: hourly(versionDecodes))
    }

    /// The writes, each group named by its `group_seq`: installs and counts (``CellWrites``), then versions,
    /// expected types, decodes, decodes per version and, for hours, the day rows (``DayCounts``).
    /// - Parameters:
    ///   - seqs: the `group_seq` of the group at each position.
    ///   - committed: the install rows known to be stored, which are left out.
    ///   - now: the time that says which cells are recent enough to be left out.
    func writes(
        seqs: [Int64], dialect: SQLDialect, leavingOut committed: CommittedInstalls, now: Date
    ) -> (cells: CellWrites, others: [SQLStatement]) {
        let bucket = rollup.column
        let cells = CellWrites(
            rollup: rollup, dialect: dialect,
            installs: committed.unknown(
                installs.map {
                    InstallRow(
                        cell: CellKey(seqs[$0.id], $0.bucket), environment: values.environments.values[$0.environment],
                        hash: $0.install)
                }, in: rollup,
                now: now),
            counts: counts.map { (CellKey(seqs[$0.cell.id], $0.cell.bucket), $0.count) })
        let expectedRows = expected.map {
            [
                SQLValue.integer(seqs[$0.cell.id]), .integer($0.cell.bucket),
                .text(values.expected.values[$0.cell.value]),
                .integer(StoredCount.clamp($0.count)),
            ]
        }
        let versionRows = versions.map {
            [
                SQLValue.integer(seqs[$0.cell.id]), .integer($0.cell.bucket),
                .text(values.environments.values[$0.cell.environment]), .text(values.versions.values[$0.cell.value]),
                .integer(StoredCount.clamp($0.count)),
            ]
        }
        let decodeRows = decodes.map {
            [
                SQLValue.text($0.cell.id), .text(values.endpoints.values[$0.cell.value]), .integer($0.cell.bucket),
                .integer(StoredCount.clamp($0.count)),
            ]
        }
        let versionDecodeRows = versionDecodes.map {
            [
                SQLValue.text($0.cell.id.app), .text(values.versions.values[$0.cell.id.version]),
                .text(values.environments.values[$0.cell.environment]), .text(values.endpoints.values[$0.cell.value]),
                .integer($0.cell.bucket),
                .integer(StoredCount.clamp($0.count)),
            ]
        }
        let others =
            IngestStatements.add(
                into: rollup.versions, columns: ["group_seq", bucket, "environment", "version"], rows: versionRows,
                dialect: dialect)
            + IngestStatements.add(
                into: rollup.expected, columns: ["group_seq", bucket, "expected"],
                rows: expectedRows, dialect: dialect)
            + IngestStatements.add(
                into: rollup.endpointCounts, columns: ["app_id", "endpoint", bucket], rows: decodeRows,
                dialect: dialect)
            + IngestStatements.add(
                into: rollup.endpointVersionCounts, columns: ["app_id", "version", "environment", "endpoint", bucket],
                rows: versionDecodeRows, dialect: dialect)
        guard rollup == .hour else { return (cells, others) }
        let days = DayCounts.add(
            counts.map { (group: seqs[$0.cell.id], hour: $0.cell.bucket, count: $0.count) }, dialect: dialect)
        return (cells, others + days)
    }
}

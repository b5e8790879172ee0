import DecodeWatchCore
import Foundation

/// One resolution's rollup rows of a commit: every batch's counts, versions, installs, expected types and
/// decodes added up per cell and sorted, each group named by its position among the commit's sorted ids. The
/// hourly rows are the per-minute ones added up again (``byHour()``).
struct RollupRows: Sendable {
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

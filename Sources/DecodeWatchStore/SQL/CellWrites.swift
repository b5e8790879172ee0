/// The writes of one resolution's cells for a commit, in this order: the install hashes, the report counts
/// with how many install hashes each cell gained, then the folding of cells past ``InstallFold/limit`` (at most
/// ``InstallFold/cellsPerCommit`` of them).
///
/// Inserting the hashes first lets their `RETURNING` (the hashes new to their cell) feed the count upsert,
/// which keeps each cell's `exact_installs` tally and returns it: the common commit, far below the limit,
/// learns which cells to fold without a statement of its own. The count row's lock then orders every writer
/// of a cell: a second writer's upsert waits for the first's commit and adds to its tally, so the tally and
/// the fold stay exact with several writers.
struct CellWrites {
    let rollup: Rollup
    let dialect: SQLDialect
    /// Each cell's install hashes from the commit that it may not hold yet, in the order of the groups' ids.
    let installs: [InstallRow]
    /// Each cell's report count from the commit, in the order of the groups' ids: one per cell the commit touches.
    let counts: [(cell: CellKey, count: Int)]

    /// Runs the statements.
    func run(in tx: any SQLTransaction) throws {
        let bucket = rollup.column
        let inserts = IngestStatements.insert(
            into: rollup.installs, columns: ["group_seq", bucket, "environment", "install_hash"],
            rows: installs.map {
                [.integer($0.cell.group), .integer($0.cell.bucket), .text($0.environment), .integer($0.hash)]
            },
            dialect: dialect,
            then: """
                ON CONFLICT (group_seq, \(bucket), environment, install_hash) DO NOTHING
                RETURNING group_seq, \(bucket) AS bucket
                """
        )
        var gained: [CellKey: Int64] = [:]
        for row in try tx.run(inserts).joined() { gained[try CellKey(row), default: 0] += 1 }
        let full = try tx.run(upsertCounts(gained: gained)).joined().compactMap {
            row -> (cell: CellKey, tally: Int64)? in
            let tally = try row.integer("exact_installs")
            return tally > InstallFold.limit ? (try CellKey(row), tally) : nil
        }
        // The furthest past the limit first; folded in sorted order, the order of every writer's locks.
        let cells = full.sorted { $0.tally > $1.tally }.prefix(InstallFold.cellsPerCommit).map(\.cell).sorted()
        try InstallFold(rollup: rollup, dialect: dialect, cells: cells).run(in: tx)
    }

    /// Adds each cell's report count and the hashes it gained; returns every cell's tally.
    private func upsertCounts(gained: [CellKey: Int64]) -> [SQLStatement] {
        let table = rollup.groupCounts
        return IngestStatements.insert(
            into: table, columns: ["group_seq", rollup.column, "count", "exact_installs"],
            rows: counts.map {
                [
                    .integer($0.cell.group), .integer($0.cell.bucket), .integer(StoredCount.clamp($0.count)),
                    .integer(gained[$0.cell] ?? 0),
                ]
            },
            dialect: dialect,
            then: """
                ON CONFLICT (group_seq, \(rollup.column)) DO UPDATE
                SET count = \(dialect.least("\(table).count + excluded.count", String(StoredCount.max))),
                    exact_installs = \(table).exact_installs + excluded.exact_installs
                RETURNING group_seq, \(rollup.column) AS bucket, exact_installs
                """)
    }
}

import DecodeWatchCore

/// Folds the install hashes of cells past ``limit`` into the cells' HyperLogLog sketches, so that a cell keeps
/// about ``limit`` hashes however many installs it sees (docs/api.md#installs-and-rates allows an estimate within 2 %
/// above 1,000).
///
/// A folded cell keeps taking the hashes of later commits as rows until it passes the limit again, so folding
/// costs a few statements per cell once per ``limit`` new hashes, and readers merge the sketch with the rows
/// (``InstallSketches``). It runs after the cell's count upsert (``CellWrites``), whose row lock orders every
/// writer of the cell: no other writer can commit hashes of the cell between this reading and deleting them.
/// The sketch row is still read `FOR UPDATE` on PostgreSQL, in the cells' sorted order, so that the
/// read-merge-write is safe on its own.
///
/// A commit folds at most ``cellsPerCommit`` cells of each resolution, those furthest past the limit. Cells
/// that fill at similar rates pass the limit together (every minute starts its cells at 0): folding them all
/// in one commit made it hundreds of milliseconds long, and every batch in it waited. A cell left past the limit
/// is folded by a later commit that writes it, so a cell keeps at most ``limit`` hashes plus what it gains
/// while others go first; a cell no commit writes again keeps them until retention. Readers merge rows and
/// sketch either way, so estimates do not change.
struct InstallFold {
    /// The most install hashes a cell keeps as rows; past it the cell's installs are estimated.
    static let limit: Int64 = 1000
    /// The most cells of one resolution a commit folds.
    static let cellsPerCommit = 3

    let rollup: Rollup
    let dialect: SQLDialect
    /// The cells to fold, sorted.
    let cells: [CellKey]

    /// Folds every cell in turn.
    func run(in tx: any SQLTransaction) throws {
        for cell in cells { try fold(cell, in: tx) }
    }

    /// Reads the cell's sketches and hashes, merges them per environment, deletes the hashes, writes the sketches
    /// and sets the cell's tally of kept hashes to 0.
    ///
    /// The hashes are read and then deleted, not deleted with `RETURNING`: SQLite's `DELETE … RETURNING` buffers
    /// every row it returns and was several times slower than the `SELECT` and the plain `DELETE` together. Nothing
    /// else can commit hashes of the cell in between (see above), so both statements see the same rows.
    private func fold(_ cell: CellKey, in tx: any SQLTransaction) throws {
        let (column, key) = (rollup.column, [SQLValue.integer(cell.group), .integer(cell.bucket)])
        // Every statement binds the cell's key first.
        var ofCell = SQLBuilder(dialect)
        let condition = "group_seq = \(ofCell.bind(key[0])) AND \(column) = \(ofCell.bind(key[1]))"
        let read = ofCell.statement(
            appending: """
                SELECT group_seq, environment, sketch FROM \(rollup.installSketches) WHERE \(condition)
                ORDER BY environment\(dialect.lockingClause)
                """)
        let hashes = ofCell.statement(
            appending: "SELECT environment, install_hash FROM \(rollup.installs) WHERE \(condition)")
        let delete = ofCell.statement(appending: "DELETE FROM \(rollup.installs) WHERE \(condition)")
        let reset = ofCell.statement(
            appending: "UPDATE \(rollup.groupCounts) SET exact_installs = 0 WHERE \(condition)")
        // One sketch per environment of the cell, so that installs can be counted per environment.
        var sketches: [String: HyperLogLog] = [:]
        for row in try tx.run(read) { sketches[try row.text("environment")] = try HyperLogLog(storedIn: row) }
        for row in try tx.run(hashes) {
            sketches[try row.text("environment"), default: HyperLogLog()].add(
                hash: UInt64(bitPattern: try row.integer("install_hash")))
        }
        let writes = sketches.sorted { $0.key < $1.key }.map { environment, sketch in
            dialect.statement(
                """
                INSERT INTO \(rollup.installSketches) (group_seq, \(column), environment, sketch)
                VALUES (\(bind: key + [.text(environment), .blob(sketch.bytes)]))
                ON CONFLICT (group_seq, \(column), environment) DO UPDATE SET sketch = excluded.sketch
                """)
        }
        _ = try tx.run([delete] + writes + [reset])
    }
}

import DecodeWatchCore
import Foundation
import Synchronization

/// Install rows of recent cells that this process committed, so that a commit leaves out the rows its cells
/// already hold instead of sending them to be refused by `ON CONFLICT DO NOTHING`.
///
/// An install that sends batches through an hour (or a minute) names the same cells again and again: with 500
/// installs, most of a commit's install rows were already stored, and inserting them anyway cost about a tenth of
/// the collector's CPU. A row is remembered only once its transaction committed, and only for cells that began in
/// the last ``recentMinutes``: nothing but retention deletes install rows (folding moves them into the cell's
/// sketch, which readers count just the same), retention never reaches a cell that young (it keeps at least a
/// day), and this store's own retention forgets everything (``forget()``). So a row left out is always counted.
///
/// The table is fixed in size: each row has a set of ``ways`` slots, and a row remembered into a full set takes the
/// place of the one remembered longest ago. A row that is not remembered is written as before, so an app with more
/// installs than slots only loses the saving, never a row.
package final class CommittedInstalls: Sendable {
    /// Slots per resolution by default: 4 MiB each, filled on the first commit.
    static let defaultSlots = 1 << 17
    /// Slots per set: with one, rows whose slots collide kept pushing each other out.
    static let ways = 4
    /// How old a cell may be, by the minute it began, to be remembered or left out.
    static let recentMinutes: Int64 = 180

    /// Slots per resolution.
    let slots: Int
    private let tables = Mutex<[Rollup: [InstallRow?]]>([:])

    /// Creates an empty table.
    /// - Parameter slots: slots per resolution; a power of two, at least ``ways``.
    package init(slots: Int = defaultSlots) {
        precondition(slots >= Self.ways && slots & (slots - 1) == 0, "slots must be a power of two of at least 4")
        self.slots = slots
    }

    /// The rows of `rows` that are not known to be stored.
    /// - Parameter now: the time that says which cells are recent.
    func unknown(_ rows: [InstallRow], in rollup: Rollup, now: Date) -> [InstallRow] {
        let isRecent = Self.isRecent(in: rollup, now: now)
        return tables.withLock { tables in
            guard let table = tables[rollup] else { return rows }
            return rows.filter { row in !isRecent(row) || !table[set(of: row)].contains(row) }
        }
    }

    /// Remembers rows that a transaction committed.
    /// - Parameter now: the time that says which cells are recent.
    func remember(_ rows: [InstallRow], in rollup: Rollup, now: Date) {
        let recent = rows.filter(Self.isRecent(in: rollup, now: now))
        guard !recent.isEmpty else { return }
        tables.withLock { tables in
            var table = tables.removeValue(forKey: rollup) ?? Array(repeating: nil, count: slots)
            for row in recent {
                let set = set(of: row)
                guard !table[set].contains(row) else { continue }
                // The set's rows move one place on; the last, remembered longest ago, goes.
                for slot in set.dropFirst().reversed() { table[slot] = table[slot - 1] }
                table[set.lowerBound] = row
            }
            tables[rollup] = table
        }
    }

    /// Forgets every row: after this store deleted rows.
    package func forget() {
        tables.withLock { $0.removeAll() }
    }

    /// Whether a row's cell began in the last ``recentMinutes`` before `now`.
    private static func isRecent(in rollup: Rollup, now: Date) -> (InstallRow) -> Bool {
        let oldest = Minute.index(of: now) - recentMinutes
        return { rollup.firstMinute(of: $0.cell.bucket) >= oldest }
    }

    /// A row's set of slots: its three numbers mixed (the install hash alone is already a hash, group and bucket
    /// are not).
    private func set(of row: InstallRow) -> Range<Int> {
        var mixed = UInt64(bitPattern: row.hash) ^ (UInt64(bitPattern: row.cell.group) &* 0x9E37_79B9_7F4A_7C15)
        mixed ^= UInt64(bitPattern: row.cell.bucket) &* 0xBF58_476D_1CE4_E5B9
        mixed ^= mixed >> 29
        let first = Int(truncatingIfNeeded: mixed) & (slots - 1) & ~(Self.ways - 1)
        return first..<first + Self.ways
    }
}

/// One install hash of one cell: a row of ``Rollup/installs``.
struct InstallRow: Hashable, Sendable {
    let cell: CellKey
    /// The environment of the batch that sent it.
    let environment: String
    let hash: Int64
}

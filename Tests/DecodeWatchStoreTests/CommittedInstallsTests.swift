import DecodeWatchCore
import Foundation
import Testing

@testable import DecodeWatchStore

/// The table of committed install rows leaves out of a commit only rows it was told were committed: when it is
/// full or the cells are old, rows are written again (which `ON CONFLICT DO NOTHING` refuses), never lost.
@Suite struct CommittedInstallsTests {
    static let now = Date()
    static let minute = Minute.index(of: now)

    static func rows(_ count: Int, group: Int64, bucket: Int64 = minute) -> [InstallRow] {
        (0..<Int64(count)).map {
            InstallRow(cell: CellKey(group, bucket), environment: "production", hash: $0 &* 0x5851_F42D_4C95_7F2D)
        }
    }

    @Test("a full table keeps the rows remembered last and never leaves out a row it was not told of")
    func fullTableEvictsOldestRows() {
        let table = CommittedInstalls(slots: 8)
        let remembered = Self.rows(40, group: 1)
        for row in remembered { table.remember([row], in: .minute, now: Self.now) }
        let neverCommitted = Self.rows(20, group: 2)
        let written = Set(table.unknown(remembered + neverCommitted, in: .minute, now: Self.now))

        #expect(neverCommitted.allSatisfy(written.contains))
        let leftOut = remembered.filter { !written.contains($0) }
        // Two sets of four slots, each holding the four rows remembered into it last.
        #expect(leftOut.count == 8)
        #expect(leftOut.contains(remembered.last!))
        #expect(!leftOut.contains(remembered.first!))
    }

    @Test("rows of cells begun more than three hours ago are written again, for minutes and hours alike")
    func oldCellsAreNotLeftOut() {
        let table = CommittedInstalls(slots: 64)
        let oldMinute = Self.rows(4, group: 1, bucket: Self.minute - CommittedInstalls.recentMinutes - 1)
        let oldHour = Self.rows(4, group: 1, bucket: Minute.hour(of: Self.minute) - 4)
        let recentHour = Self.rows(4, group: 1, bucket: Minute.hour(of: Self.minute))
        table.remember(oldMinute, in: .minute, now: Self.now)
        table.remember(oldHour + recentHour, in: .hour, now: Self.now)

        #expect(table.unknown(oldMinute, in: .minute, now: Self.now) == oldMinute)
        #expect(table.unknown(oldHour + recentHour, in: .hour, now: Self.now) == oldHour)
    }

    @Test("a cell remembered while recent is written again once three hours have passed since it began")
    func cellsAgeOut() {
        let table = CommittedInstalls(slots: 64)
        let rows = Self.rows(4, group: 1)
        table.remember(rows, in: .minute, now: Self.now)
        #expect(table.unknown(rows, in: .minute, now: Self.now).isEmpty)

        let later = Self.now.addingTimeInterval(TimeInterval(CommittedInstalls.recentMinutes + 1) * 60)
        #expect(table.unknown(rows, in: .minute, now: later) == rows)
    }

    @Test("after forgetting, every row is written again")
    func forgetClearsBothResolutions() {
        let table = CommittedInstalls(slots: 64)
        let minutes = Self.rows(4, group: 1)
        let hours = Self.rows(4, group: 1, bucket: Minute.hour(of: Self.minute))
        table.remember(minutes, in: .minute, now: Self.now)
        table.remember(hours, in: .hour, now: Self.now)
        #expect(table.unknown(minutes, in: .minute, now: Self.now).isEmpty)

        table.forget()
        #expect(table.unknown(minutes, in: .minute, now: Self.now) == minutes)
        #expect(table.unknown(hours, in: .hour, now: Self.now) == hours)
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// Installs (docs/api.md#installs-and-rates) with bounded storage, on every backend: a cell (group and hour or minute)
/// keeps up to 1,000 install hashes exactly, then folds them into a HyperLogLog sketch read within 2 %.
@Suite struct InstallSketchStoreTests {
    /// The start of the hour three hours ago: recent enough for minute-exact windows, and in the past.
    static let base = Hour.start(of: Hour.index(of: Date()) - 3)

    /// The time `minutes` after ``base``.
    static func at(_ minutes: Int) -> Date { base.addingTimeInterval(TimeInterval(minutes * 60)) }

    /// The window from `from` to `to` minutes after ``base``.
    static func window(_ from: Int, _ to: Int) -> FieldsQuery { FieldsQuery(since: at(from), until: at(to)) }

    static func expectWithinTwoPercent(
        _ estimate: Int?, of count: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let estimate = estimate ?? 0
        #expect(
            abs(Double(estimate - count)) <= 0.02 * Double(count), "\(estimate) installs for \(count)",
            sourceLocation: sourceLocation)
    }

    @Test(
        "exactly 1,000 installs in one group-hour are counted exactly, with no sketch",
        arguments: StoreBackend.allCases)
    func aThousandInstallsStayExact(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.sendInstalls(0..<1000) { 5 + $0 % 50 }
            #expect(try await fixture.store.fields(Self.window(0, 180)).fields.map(\.installs) == [1000])
            #expect(try await fixture.database.count("group_hour_installs") == 1000)
            #expect(try await fixture.database.count("group_hour_install_sketches") == 0)
            #expect(try await fixture.database.count("group_minute_install_sketches") == 0)
        }
    }

    @Test(
        "20,000 installs over hours and minutes are within 2 % in a mid-hour window, each cell keeping about 1,000 rows",
        arguments: StoreBackend.allCases)
    func twentyThousandInstallsWithinTwoPercent(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // Inside the window [0:20, 2:30): two minutes of the first hour, the whole second hour, two minutes
            // of the third, so both resolutions fold. Outside it: 1,000 more, which would break 2 % if counted.
            let inside = [25, 40, 70, 100, 125, 140]
            try await fixture.sendInstalls(0..<20_000) { inside[$0 % inside.count] }
            try await fixture.sendInstalls(20_000..<21_000) { $0 % 2 == 0 ? 5 : 155 }
            Self.expectWithinTwoPercent(
                try await fixture.store.fields(Self.window(20, 150)).fields.first?.installs, of: 20_000)
            #expect(try await fixture.database.count("group_hour_install_sketches") == 3)
            #expect(try await fixture.database.count("group_minute_install_sketches") == 6)
        }
    }

    @Test("sending the same installs again leaves the estimate exactly as it was", arguments: StoreBackend.allCases)
    func resentInstallsChangeNothing(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.sendInstalls(0..<3000) { _ in 70 }
            let first = try await fixture.store.fields(Self.window(60, 120)).fields.first?.installs
            Self.expectWithinTwoPercent(first, of: 3000)
            try await fixture.sendInstalls(0..<3000) { _ in 70 }
            #expect(try await fixture.store.fields(Self.window(60, 120)).fields.first?.installs == first)
        }
    }

    @Test(
        "installs in sketched and exact cells of a window are a union, not a sum, per group and in digest totals",
        arguments: StoreBackend.allCases)
    func sketchedAndExactCellsAreUnioned(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // One group: 3,000 installs in hour 1 (sketched), then 500 in hour 2 (exact), 400 of them seen before.
            try await fixture.sendInstalls(0..<3000) { _ in 70 }
            try await fixture.sendInstalls(2600..<3100) { _ in 130 }
            // Another group: 400 in hour 2 (exact), overlapping the first group's.
            try await fixture.sendInstalls(2900..<3300, path: ["body"]) { _ in 130 }

            func installs(_ from: Int, _ to: Int) async throws -> Int? {
                try await fixture.store.fields(Self.window(from, to)).fields.first { $0.path == "$.results[*].title" }?
                    .installs
            }
            Self.expectWithinTwoPercent(try await installs(60, 180), of: 3100)
            Self.expectWithinTwoPercent(try await installs(65, 150), of: 3100)  // minute cells at both edges
            #expect(try await installs(120, 180) == 500)  // no sketch in this window: exact
            let totals = try await fixture.store.digestTotals(app: nil, since: Self.at(60), until: Self.at(180))
            Self.expectWithinTwoPercent(totals.installs, of: 3300)
        }
    }

    @Test(
        "a commit folds at most 3 cells of a resolution, and the next commit that writes the others folds them",
        arguments: StoreBackend.allCases)
    func foldsAreSpreadOverCommits(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // 5 minutes of one hour pass 1,000 installs each in one commit: 3 fold, 2 wait.
            try await fixture.sendInstalls(0..<5005, perCommit: 5005) { 5 + $0 % 5 }
            #expect(try await fixture.database.cellsKeeping(moreThan: 1000) == 2)
            Self.expectWithinTwoPercent(
                try await fixture.store.fields(Self.window(0, 60)).fields.first?.installs, of: 5005)
            // One more install in each of those minutes: the 2 left past the limit are folded now.
            try await fixture.sendInstalls(5005..<5010, perCommit: 5) { 5 + $0 % 5 }
            #expect(try await fixture.database.cellsKeeping(moreThan: 1000) == 0)
            #expect(try await fixture.database.count("group_minute_install_sketches") == 5)
            Self.expectWithinTwoPercent(
                try await fixture.store.fields(Self.window(0, 60)).fields.first?.installs, of: 5010)
        }
    }

    @Test(
        "two replicas folding the same group-hour concurrently lose no installs and keep at most 1,000 rows a cell",
        arguments: StoreBackend.allCases)
    func concurrentReplicasLoseNoInstalls(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let replica = try await fixture.reopen()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await fixture.sendInstalls(0..<6000, perCommit: 100) { _ in 70 } }
                group.addTask { try await fixture.sendInstalls(6000..<12_000, perCommit: 100, to: replica) { _ in 70 } }
                try await group.waitForAll()
            }
            Self.expectWithinTwoPercent(
                try await fixture.store.fields(Self.window(60, 120)).fields.first?.installs, of: 12_000)
            #expect(try await fixture.database.cellsKeeping(moreThan: 1000) == 0)
        }
    }
}

extension StoreFixture {
    /// Ingests one batch per install id, in commits of `perCommit` batches, and checks after every commit
    /// that no cell keeps more than 1,000 install hashes as rows, plus one commit's when the commit before left
    /// it for later (a commit folds at most 3 cells of each resolution).
    /// - Parameters:
    ///   - ids: the installs, sent as `install-<id>`.
    ///   - minute: when each install's report occurred, in minutes after ``InstallSketchStoreTests/base``.
    func sendInstalls(
        _ ids: Range<Int>, path: [Any] = ["results", 0, "title"], perCommit: Int = 250,
        to target: OpenedStore? = nil, minute: (Int) -> Int
    ) async throws {
        for start in stride(from: ids.lowerBound, to: ids.upperBound, by: perCommit) {
            let batches = try (start..<min(start + perCommit, ids.upperBound)).map { id in
                try Self.batch(
                    at: RFC3339.string(from: InstallSketchStoreTests.at(minute(id))), path: path,
                    install: "install-\(id)")
            }
            #expect(try await (target ?? opened).sink.commit(batches).allSatisfy { $0 == .stored })
            #expect(try await database.cellsKeeping(moreThan: 1000 + perCommit) == 0)
        }
    }
}

extension FreshDatabase {
    /// How many cells, hourly or per minute, keep more than `rows` install hashes as rows.
    func cellsKeeping(moreThan rows: Int) async throws -> Int {
        var cells = 0
        for (table, bucket) in [("group_hour_installs", "hour"), ("group_minute_installs", "minute")] {
            cells += try await count(
                "(SELECT group_seq FROM \(table) GROUP BY group_seq, \(bucket) HAVING COUNT(*) > \(rows)) AS full_cells"
            )
        }
        return cells
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// What every backend must do when storing and summarizing reports (docs/api.md#breaking-fields,
/// docs/ARCHITECTURE.md#storage).
@Suite("ReportStore conformance, acknowledging after the rollups are written and from the log")
struct ReportStoreConformanceTests {
    static let window = FieldsQuery(since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))

    @Test("concurrent writers on separate connections stay exact", arguments: StoreBackend.allCases, StoreMode.allCases)
    func concurrentWritersStayExact(backend: StoreBackend, mode: StoreMode) async throws {
        try await backend.withFreshDatabase(mode: mode) { fixture in
            var replicas = [fixture.opened]
            for _ in 1..<4 { replicas.append(try await fixture.reopen()) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<8 {
                    group.addTask { [replicas] in
                        for batch in 0..<25 {
                            // Every batch touches both groups, listed in either order: rows are locked in one
                            // order regardless, so PostgreSQL transactions never deadlock.
                            let paths: [[Any]] = batch % 2 == 0 ? [["a"], ["b"]] : [["b"], ["a"]]
                            try await fixture.send(
                                batch % 3 + 1, paths: paths, install: "i\(writer)", to: replicas[writer % 4])
                        }
                    }
                }
                try await group.waitForAll()
            }
            let fields = try await fixture.store.fields(Self.window).fields
            let perWriter = 9 * 1 + 8 * 2 + 8 * 3
            #expect(fields.map(\.count) == [8 * perWriter, 8 * perWriter])
            #expect(fields.map(\.installs) == [8, 8])
        }
    }

    @Test(
        "a batch id is stored once per app, even when sent twice at once", arguments: StoreBackend.allCases,
        StoreMode.allCases)
    func idempotentBatches(backend: StoreBackend, mode: StoreMode) async throws {
        try await backend.withFreshDatabase(mode: mode) { fixture in
            #expect(try await fixture.send(5, batchID: "same") == .stored)
            #expect(try await fixture.send(5, batchID: "same") == .duplicate)
            #expect(try await fixture.send(5, app: "com.example.other", batchID: "same") == .stored)
            let replica = try await fixture.reopen()
            let outcomes = try await withThrowingTaskGroup(of: IngestOutcome.self) { group in
                for target in [fixture.opened, replica] {
                    group.addTask { try await fixture.send(7, batchID: "raced", to: target) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .stored }.count == 1 && outcomes.filter { $0 == .duplicate }.count == 1)
            let counts = try await fixture.store.fields(Self.window).fields.map(\.count)
            #expect(counts == [12, 5])
        }
    }

    @Test(
        "the sample is the latest report's, and first/last seen span all batches", arguments: StoreBackend.allCases,
        StoreMode.allCases)
    func samplesAndSeen(backend: StoreBackend, mode: StoreMode) async throws {
        try await backend.withFreshDatabase(mode: mode) { fixture in
            try await fixture.send(at: "2026-11-21T09:30:00Z", snippet: #"{"late":1}"#)
            try await fixture.send(at: "2026-11-21T08:00:00Z", snippet: #"{"early":1}"#)
            let field = try #require(try await fixture.store.fields(Self.window).fields.first)
            #expect(field.sample.snippet == #"{"late":1}"#)
            #expect(field.firstSeen == date("2026-11-21T08:00:00Z"))
            #expect(field.lastSeen == date("2026-11-21T09:30:00Z"))
        }
    }

    @Test(
        "resolve, then a later report regresses the group with its version; an older one does not",
        arguments: StoreBackend.allCases, StoreMode.allCases)
    func lifecycle(backend: StoreBackend, mode: StoreMode) async throws {
        try await backend.withFreshDatabase(mode: mode) { fixture in
            try await fixture.send(at: "2026-11-21T08:00:00Z")
            let group = try #require(try await fixture.store.fields(Self.window).fields.first?.group)
            try await fixture.store.resolve(group: group, at: date("2026-11-21T09:00:00Z"))
            try await fixture.send(at: "2026-11-21T08:30:00Z")
            #expect(try await fixture.store.fields(Self.window).fields.first?.status == .resolved)
            try await fixture.send(at: "2026-11-21T09:30:00Z", version: "2.0")
            #expect(try await fixture.store.fields(Self.window).fields.first?.status == .regressed)
            let error = await #expect(throws: StoreError.self) {
                try await fixture.store.resolve(group: "ffffffffffffffff", at: Date())
            }
            #expect(error?.code == .notFound)
        }
    }

    @Test(
        "a group id already taken by another app's group refuses the batch and leaves that group untouched",
        arguments: StoreBackend.allCases, StoreMode.allCases)
    func groupConflict(backend: StoreBackend, mode: StoreMode) async throws {
        try await backend.withFreshDatabase(mode: mode) { fixture in
            let key = GroupKey(
                app: "com.attacker", endpoint: "GET /v2/posts", path: "$.results[*].title", kind: .keyNotFound)
            // Plant a victim group under the id the attacker's key maps to: what a hash collision would do.
            try await fixture.database.execute(
                """
                INSERT INTO groups (group_id, app_id, endpoint, path, kind, first_seen, last_seen)
                VALUES ('\(key.id)', 'com.victim', 'GET /v1/me', '$.name', 'keyNotFound', 0, 0)
                """)
            try await fixture.database.execute(
                """
                INSERT INTO group_hours (group_seq, hour, count)
                VALUES ((SELECT group_seq FROM groups WHERE group_id = '\(key.id)'), 0, 7)
                """)
            try await fixture.database.rebuildDayRows()
            let error = await #expect(throws: StoreError.self) {
                try await fixture.send(3, app: "com.attacker", batchID: "attack")
            }
            #expect(error?.code == .conflict)
            let victim = try await fixture.store.digestTotals(
                app: "com.victim", since: Date(timeIntervalSince1970: 0), until: date("2027-01-01T00:00:00Z"))
            #expect(victim.count == 7)
            // Nothing of the refused batch was kept: not even its id.
            #expect(try await fixture.send(3, path: ["other"], app: "com.attacker", batchID: "attack") == .stored)
        }
    }

    @Test(
        "counts past the storage cap saturate, and sums stop at 2^53 instead of overflowing",
        arguments: StoreBackend.allCases, StoreMode.allCases)
    func countsSaturate(backend: StoreBackend, mode: StoreMode) async throws {
        try await backend.withFreshDatabase(mode: mode) { fixture in
            try await fixture.send(1_000_000)
            try await fixture.settle()
            // Bring the cells next to the cap, as 17.6 million such batches would.
            for table in ["group_hours", "group_hour_versions"] {
                try await fixture.database.execute("UPDATE \(table) SET count = \(StoredCount.max - 5)")
            }
            try await fixture.database.rebuildDayRows()
            try await fixture.send(1_000_000)
            try await fixture.settle()
            var field = try #require(try await fixture.store.fields(Self.window).fields.first)
            #expect(field.count == Int(StoredCount.max))
            #expect(field.versions["5.2.0"] == Int(StoredCount.max))
            // 600 full cells in one group: their sum would pass 2^53.
            try await fixture.database.execute(
                """
                WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
                INSERT INTO group_hours (group_seq, hour, count)
                SELECT (SELECT group_seq FROM groups WHERE group_id = '\(field.group)'),
                       \(Hour.index(of: Self.window.since)) - i, \(StoredCount.max) FROM n
                """)
            try await fixture.database.rebuildDayRows()
            let since = Hour.start(of: Hour.index(of: Self.window.since) - 700)
            field = try #require(
                try await fixture.store.fields(FieldsQuery(since: since, until: Self.window.until)).fields.first)
            #expect(field.count == Int(StoredCount.maxSum))
            let totals = try await fixture.store.digestTotals(app: nil, since: since, until: Self.window.until)
            #expect(totals.count == Int(StoredCount.maxSum))
        }
    }

    @Test("readiness answers while the database does", arguments: StoreBackend.allCases, StoreMode.allCases)
    func readiness(backend: StoreBackend, mode: StoreMode) async throws {
        try await backend.withFreshDatabase(mode: mode) { fixture in
            try await fixture.store.checkReadiness()
        }
    }
}

extension FreshDatabase {
    /// Writes the day rows again from the hourly cells, as ingest would have kept them for cells a test
    /// planted directly.
    func rebuildDayRows() async throws {
        try await execute("DELETE FROM \(DayCounts.table)")
        try await execute(DayCounts.backfill(in: dialect))
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import GRDB
import PostgresNIO
import Testing

/// Retention (`serve --retention`): what is older than the horizon goes, in bounded steps, on every backend.
@Suite("RetentionStore conformance")
struct RetentionStoreTests {
    static let horizon = date("2026-11-01T00:00:00Z")
    static let allTime = FieldsQuery(since: date("2026-01-01T00:00:00Z"), until: date("2027-01-01T00:00:00Z"))
    static let rollups = [
        "group_hours", "group_hour_versions", "group_hour_expected", "group_hour_installs", "endpoint_hours",
        "endpoint_version_hours",
    ]

    /// Sweeps as the collector's retention does: steps until one deletes nothing; returns each step's count.
    @discardableResult
    static func sweep(_ store: some RetentionStore, before horizon: Date = RetentionStoreTests.horizon, limit: Int)
        async throws -> [Int]
    {
        var steps: [Int] = []
        while true {
            let deleted = try await store.deleteExpired(before: horizon, minutesBefore: horizon, limit: limit)
            if deleted == 0 { return steps }
            steps.append(deleted)
        }
    }

    @Test(
        "batches past the horizon acknowledged just before a sweep are deleted by it, not folded after it",
        arguments: StoreBackend.allCases)
    func sweepFoldsAcknowledgedBatchesFirst(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase(mode: .logged) { fixture in
            // The second waits for the fold spacing (20 ms) after the first one's fold.
            try await fixture.send(2, at: "2026-08-01T00:15:00Z", batchID: "old-1")
            try await fixture.send(3, at: "2026-08-01T01:15:00Z", batchID: "old-2")
            #expect(try await Self.sweep(fixture.store, limit: 2000).reduce(0, +) > 0)
            #expect(try await fixture.store.fields(Self.allTime).fields.isEmpty)
        }
    }

    @Test(
        "data before the horizon is deleted a bounded step at a time; what is recent keeps exact numbers",
        arguments: StoreBackend.allCases)
    func deletesExpiredInSteps(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // Three months ago: three groups over six hours, from three installs, with decode counts.
            for hour in 0..<6 {
                try await fixture.send(
                    2, at: "2026-08-01T0\(hour):15:00Z", paths: [["title"], ["body"], ["author"]],
                    install: "old-\(hour % 3)", batchID: "old-\(hour)", decodes: ["GET /v2/posts": 10])
            }
            // Recent: one of those groups again, and a new one.
            try await fixture.send(
                4, at: "2026-11-21T09:00:00Z", paths: [["title"], ["tags"]], batchID: "recent",
                decodes: ["GET /v2/posts": 16])

            // A decision about a group seen only before the horizon goes with it.
            try await fixture.store.apply(
                .resolve, to: try await fixture.group(path: "$.author"), at: Self.horizon, by: "local:test")
            #expect(try await fixture.database.count("group_status_events") == 1)

            let steps = try await Self.sweep(fixture.store, limit: 4)
            // 18 hourly cells and as many minute cells (each with a version, an expected value and an install),
            // and 3 day rows, in steps of at most 4 of each of the 16 kinds of row.
            #expect(steps.count >= 5)
            #expect(steps.allSatisfy { $0 <= 4 * 16 })

            let fields = try await fixture.store.fields(Self.allTime).fields
            #expect(fields.map(\.path).sorted() == ["$.tags", "$.title"])
            #expect(fields.map(\.count) == [4, 4])
            #expect(fields.map(\.installs) == [1, 1])
            #expect(fields.map(\.rate) == [0.25, 0.25])
            #expect(fields.allSatisfy { $0.versions == ["5.2.0": 4] })
            for table in Self.rollups {
                #expect(
                    try await fixture.database.count(table, "hour < \(Hour.index(of: Self.horizon))") == 0, "\(table)")
                #expect(
                    try await fixture.database.count(table, "hour >= \(Hour.index(of: Self.horizon))") > 0, "\(table)")
            }
            // Groups seen only before the horizon are gone; a recent one keeps its first sighting.
            #expect(try await fixture.database.count("groups") == 2)
            #expect(try await fixture.database.count("group_status_events") == 0)
            #expect(try await fixture.database.count("group_environments") == 2)
            // Batch ids go too: the same old batch sent again is stored as new.
            #expect(try await fixture.database.count("batches") == 1)
            #expect(
                try await fixture.send(2, at: "2026-08-01T00:15:00Z", path: ["title"], batchID: "old-0") == .stored)
        }
    }

    @Test(
        "a horizon inside a day drops that day's earlier hours from the ranking, as from the counts",
        arguments: StoreBackend.allCases)
    func horizonInsideADay(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // `title` fails often before a horizon at 10:00 on the same day and once after it; `tags` three times
            // after it.
            try await fixture.send(10, at: "2026-11-01T05:15:00Z", path: ["title"], batchID: "early")
            try await fixture.send(1, at: "2026-11-01T14:15:00Z", path: ["title"], batchID: "late")
            try await fixture.send(3, at: "2026-11-01T14:20:00Z", path: ["tags"], batchID: "tags")
            let horizon = date("2026-11-01T10:00:00Z")
            try await Self.sweep(fixture.store, before: horizon, limit: 4)

            // The top field is chosen from the day's counts: they must have lost the hours before the horizon.
            let top = try await fixture.store.fields(
                FieldsQuery(since: Self.allTime.since, until: Self.allTime.until, limit: 1))
            #expect(top.fields.map(\.path) == ["$.tags"])
            #expect(try await fixture.store.fields(Self.allTime).fields.map(\.count) == [3, 1])
            // The day rows' running totals no longer hold the hours before 10:00: `title`'s day is 1, `tags`'s 3.
            #expect(try await fixture.database.count("group_days", "h9 <> 0") == 0)
            #expect(try await fixture.database.count("group_days", "h23 = 1 OR h23 = 3") == 2)
        }
    }

    @Test(
        "install sketches before the horizon are deleted with their cells; recent ones stay",
        arguments: StoreBackend.allCases)
    func deletesExpiredInstallSketches(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            for (time, ids) in [("2026-08-01T00:15:00Z", 0..<1500), ("2026-11-21T09:00:00Z", 1500..<3000)] {
                let batches = try ids.map { try StoreFixture.batch(at: time, install: "install-\($0)") }
                _ = try await fixture.sink.commit(batches)
            }
            for table in ["group_hour_install_sketches", "group_minute_install_sketches"] {
                #expect(try await fixture.database.count(table) == 2, "\(table)")
            }
            try await Self.sweep(fixture.store, limit: 4)
            for table in ["group_hour_install_sketches", "group_minute_install_sketches"] {
                #expect(try await fixture.database.count(table) == 1, "\(table)")
            }
            let installs = try #require(try await fixture.store.fields(Self.allTime).fields.first?.installs)
            #expect(abs(installs - 1500) <= 30, "\(installs)")
        }
    }

    @Test(
        "a step deletes at most its limit of install rows; the cell goes once its installs are gone",
        arguments: StoreBackend.allCases)
    func deletesInstallRowsInSteps(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // One old cell per resolution with 900 installs (kept as rows, under the fold's limit), and a recent one.
            let old = try (0..<900).map { try StoreFixture.batch(at: "2026-08-01T00:15:00Z", install: "old-\($0)") }
            _ = try await fixture.sink.commit(old)
            try await fixture.send(2, at: "2026-11-21T09:00:00Z", install: "recent", batchID: "recent")
            let expired = [
                ("group_hour_installs", "group_hours", "hour < \(Hour.index(of: Self.horizon))"),
                ("group_minute_installs", "group_minutes", "minute < \(Minute.index(of: Self.horizon))"),
            ]

            _ = try await fixture.store.deleteExpired(before: Self.horizon, minutesBefore: Self.horizon, limit: 100)
            for (installs, cells, condition) in expired {
                #expect(try await fixture.database.count(installs, condition) == 800, "\(installs)")
                #expect(try await fixture.database.count(cells, condition) == 1, "\(cells)")
            }

            try await Self.sweep(fixture.store, limit: 100)
            for (installs, cells, condition) in expired {
                #expect(try await fixture.database.count(installs, condition) == 0, "\(installs)")
                #expect(try await fixture.database.count(cells, condition) == 0, "\(cells)")
                #expect(try await fixture.database.count(installs) == 1, "\(installs)")
            }
            #expect(try await fixture.store.fields(Self.allTime).fields.map(\.installs) == [1])
        }
    }

    @Test("ingest while retention runs stays exact", arguments: StoreBackend.allCases)
    func ingestDuringRetention(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            for index in 0..<40 {
                try await fixture.send(1, at: "2026-08-01T00:\(10 + index):00Z", path: ["old", "\(index)"])
            }
            let sweeper = try await fixture.reopen().store
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await Self.sweep(sweeper, limit: 3)
                }
                group.addTask {
                    for _ in 0..<30 { try await fixture.send(3, at: "2026-11-21T09:00:00Z") }
                }
                try await group.waitForAll()
            }
            #expect(
                try await fixture.store.deleteExpired(before: Self.horizon, minutesBefore: Self.horizon, limit: 100)
                    == 0)
            #expect(try await fixture.store.fields(Self.allTime).fields.map(\.count) == [90])
        }
    }

    /// An ingest commit locks a group's row with its upsert, moving `last_seen` forward, and adds the group's new
    /// cells. A retention step that found the group expired before that commit waits for the lock, and must then
    /// see the new `last_seen` rather than delete a group whose report was just acknowledged. PostgreSQL only:
    /// SQLite's one writer never runs the two at once.
    @Test("a group reported again while retention is deleting it stays, with its cells and history (PostgreSQL)")
    func groupReportedDuringItsDeletion() async throws {
        try await StoreBackend.postgres.withFreshDatabase { fixture in
            try await fixture.send(2, at: "2026-08-01T09:00:00Z")
            let group = try await fixture.group(path: "$.results[*].title")
            try await fixture.store.apply(
                .mute(.period(86_400 * 365)), to: group, at: date("2026-08-02T00:00:00Z"), by: "local:test")
            let recent = date("2026-11-21T09:00:00Z")
            let lastSeen = Int64(recent.timeIntervalSince1970 * 1000)
            // What the ingest commit of a report at `recent` has done and not yet committed.
            let database = fixture.database
            try await database.execute("BEGIN")
            try await database.execute("UPDATE groups SET last_seen = \(lastSeen) WHERE group_id = '\(group)'")
            try await database.execute(
                """
                INSERT INTO group_hours (group_seq, hour, count)
                SELECT group_seq, \(Hour.index(of: recent)), 3 FROM groups WHERE group_id = '\(group)'
                """)
            let sweep = Task {
                try await fixture.store.deleteExpired(before: Self.horizon, minutesBefore: Self.horizon, limit: 100)
            }
            // The step deletes the group's August cells, then waits for the group's row.
            var polls = 0
            while try await database.count("pg_stat_activity", "wait_event_type = 'Lock'") == 0 {
                polls += 1
                try #require(polls < 200, "the retention step never waited for the group's row")
                try await Task.sleep(for: .milliseconds(50))
            }
            try await database.execute("COMMIT")
            #expect(try await sweep.value > 0)
            #expect(try await database.count("groups", "last_seen = \(lastSeen)") == 1)
            // Only the August cell went.
            #expect(try await database.count("group_hours", "hour <> \(Hour.index(of: recent))") == 0)
            #expect(try await database.count("group_hours") == 1)
            #expect(try await database.count("group_actions") == 1)
            #expect(try await database.count("group_status_events") == 1)
        }
    }
}

extension FreshDatabase {
    /// The rows of a table, optionally only those matching a condition.
    func count(_ table: String, _ condition: String = "TRUE") async throws -> Int {
        let sql = "SELECT COUNT(*) FROM \(table) WHERE \(condition)"
        switch self {
        case .sqlite(let folder):
            return try await Self.connection(to: folder).read { db in
                try Int.fetchOne(db, sql: sql) ?? 0
            }
        case .postgres(_, let admin):
            for try await count in try await admin.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger)
                .decode(Int.self)
            {
                return count
            }
            return 0
        }
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// A window's whole hours are summed from one row per group and UTC day: the ranking must count exactly the
/// window's hours however it falls across days.
@Suite("Window totals from day rows")
struct DayCountWindowStoreTests {
    /// Reports just before and after two UTC midnights, and on days either side of them: each batch in a
    /// commit of its own (each commit writes one hour of a day row), or all in one (a commit writing several).
    static func seed(_ fixture: StoreFixture, together: Bool) async throws {
        let batches = try [
            (6, "2026-11-18T22:30:00Z", "a"), (5, "2026-11-18T23:30:00Z", "c"), (4, "2026-11-19T00:30:00Z", "b"),
            (3, "2026-11-19T23:30:00Z", "b"), (2, "2026-11-17T12:30:00Z", "d"), (9, "2026-11-20T01:30:00Z", "d"),
        ].map { count, time, path in try StoreFixture.batch(count, at: time, path: [path]) }
        if together {
            #expect(try await fixture.sink.commit(batches).allSatisfy { $0 == .stored })
        } else {
            for batch in batches { #expect(try await fixture.sink.commit(batch) == .stored) }
        }
    }

    @Test(
        "windows within a day, across a midnight and across whole days rank and count exactly their hours, whether each commit wrote one hour or several",
        arguments: StoreBackend.allCases, [false, true])
    func windowsAcrossDays(backend: StoreBackend, together: Bool) async throws {
        try await backend.withFreshDatabase { fixture in
            try await Self.seed(fixture, together: together)
            func ranking(_ since: String, _ until: String, limit: Int = 50) async throws -> [String] {
                let query = FieldsQuery(since: date(since), until: date(until), limit: limit)
                return try await fixture.store.fields(query).fields.map { "\($0.path) \($0.count)" }
            }
            // Across one midnight: an hour each side of it.
            #expect(try await ranking("2026-11-18T22:00:00Z", "2026-11-19T01:00:00Z") == ["$.a 6", "$.c 5", "$.b 4"])
            // Across one midnight to the next: the last hour of one day and a whole day.
            #expect(try await ranking("2026-11-18T23:00:00Z", "2026-11-20T00:00:00Z") == ["$.b 7", "$.c 5"])
            // One whole day, and one hour of a day.
            #expect(try await ranking("2026-11-19T00:00:00Z", "2026-11-20T00:00:00Z") == ["$.b 7"])
            #expect(try await ranking("2026-11-18T23:00:00Z", "2026-11-19T00:00:00Z") == ["$.c 5"])
            // Four days: parts of the first and last, the two between whole.
            #expect(
                try await ranking("2026-11-17T12:00:00Z", "2026-11-20T02:00:00Z")
                    == ["$.d 11", "$.b 7", "$.a 6", "$.c 5"])
            // The same days without the hours holding `d`'s reports.
            #expect(
                try await ranking("2026-11-17T13:00:00Z", "2026-11-20T01:00:00Z") == ["$.b 7", "$.a 6", "$.c 5"])

            // With a page of one, the group shown is the one the day rows rank first.
            #expect(try await ranking("2026-11-17T12:00:00Z", "2026-11-20T02:00:00Z", limit: 1) == ["$.d 11"])
            #expect(try await ranking("2026-11-17T13:00:00Z", "2026-11-20T01:00:00Z", limit: 1) == ["$.b 7"])
            #expect(try await ranking("2026-11-18T22:00:00Z", "2026-11-19T01:00:00Z", limit: 1) == ["$.a 6"])
        }
    }

    @Test("the digest's window totals count the same hours across days", arguments: StoreBackend.allCases)
    func digestAcrossDays(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await Self.seed(fixture, together: false)
            let totals = try await fixture.store.digestTotals(
                app: nil, since: date("2026-11-18T23:00:00Z"), until: date("2026-11-20T00:00:00Z"))
            #expect(totals.count == 12)
            #expect(totals.groups == 2)
        }
    }

    @Test(
        "day rows written as one count per hour, before running totals, are written again as running totals on upgrade",
        arguments: StoreBackend.allCases)
    func upgradeToRunningTotals(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await Self.seed(fixture, together: false)
            // The rows as the first version of day rows wrote them, and that version's migrations only.
            let hours = (0..<24).map { "SUM(CASE WHEN hour % 24 = \($0) THEN count ELSE 0 END)" }
            try await fixture.database.execute("DELETE FROM group_days")
            try await fixture.database.execute(
                """
                INSERT INTO group_days (group_seq, day, \((0..<24).map { "h\($0)" }.joined(separator: ", ")))
                SELECT group_seq, hour / 24, \(hours.joined(separator: ", ")) FROM group_hours GROUP BY group_seq, hour / 24
                """)
            switch fixture.database {
            case .sqlite:
                try await fixture.database.execute("DELETE FROM grdb_migrations WHERE identifier = 'runningDayTotals'")
            case .postgres:
                try await fixture.database.execute("DELETE FROM schema_migrations WHERE version = 13")
            }

            let upgraded = try await fixture.reopen().store
            let day = FieldsQuery(since: date("2026-11-19T00:00:00Z"), until: date("2026-11-20T00:00:00Z"))
            #expect(try await upgraded.fields(day).fields.map { "\($0.path) \($0.count)" } == ["$.b 7"])
            let totals = try await upgraded.digestTotals(
                app: nil, since: date("2026-11-18T23:00:00Z"), until: date("2026-11-20T00:00:00Z"))
            #expect(totals.count == 12)
        }
    }
}

import DecodeWatchCore
import Foundation
import Testing

@testable import DecodeWatchStore

/// The migration that keys cell tables by `group_seq`: a database written before it keeps what it counted.
@Suite("Integer cell keys migration")
struct CellKeyMigrationTests {
    static let key = GroupKey(
        app: "com.example.shop", endpoint: "GET /v2/posts", path: "$.results[*].title", kind: .keyNotFound)
    static let other = GroupKey(
        app: "com.example.shop", endpoint: "GET /v2/posts", path: "$.results[*].id", kind: .typeMismatch)
    /// 2026-11-21T09:00Z, the hour the fixture's reports fall in, as an hour and a minute index.
    static let hour = Hour.index(of: RFC3339.date(from: "2026-11-21T09:00:00Z")!)
    static let window = FieldsQuery(
        since: RFC3339.date(from: "2026-11-21T09:00:00Z")!, until: RFC3339.date(from: "2026-11-21T10:00:00Z")!)

    @Test(
        "a database from before integer cell keys keeps every group's counts, versions, expected types and installs, in production, drops cells of no group, and takes new reports into the same groups",
        arguments: StoreBackend.allCases)
    func upgradeKeepsCells(backend: StoreBackend) async throws {
        try await backend.withDatabase(migratedThrough: "addInstallSketches", rows: Self.oldRows) { fixture in
            try await Self.expectCellsKept(fixture)
        }
    }

    private static func expectCellsKept(_ fixture: StoreFixture) async throws {
        let fields = try await fixture.store.fields(window).fields
        #expect(fields.map(\.group) == [key.id, other.id])
        let first = try #require(fields.first)
        #expect(first.count == 5)
        #expect(first.versions == ["5.2.0": 4, "5.1.0": 1])
        #expect(first.expected == "String")
        #expect(first.installs == 2)
        #expect(first.sample.message == "kept sample")
        #expect(fields.last?.count == 3)
        #expect(try await fixture.database.count("group_hours") == 2, "the cell of no group is gone")
        // Environments came later still: what was stored before them counts as production.
        var production = window
        production.environment = "production"
        let inProduction = try await fixture.store.fields(production).fields
        #expect(inProduction.map(\.count) == [5, 3])
        #expect(inProduction.map(\.installs) == [2, 1])
        #expect(inProduction.first?.versions == ["5.2.0": 4, "5.1.0": 1])
        production.environment = "staging"
        #expect(try await fixture.store.fields(production).fields.isEmpty)

        // A new report of the first group adds to its migrated cells.
        #expect(try await fixture.send(2) == .stored)
        let after = try #require(try await fixture.store.fields(window).fields.first)
        #expect(after.group == key.id)
        #expect(after.count == 7)
        #expect(after.versions["5.2.0"] == 6)
        #expect(after.installs == 3)
        #expect(try await fixture.database.count("groups") == 2)
    }

    /// Two groups with hourly and per-minute cells in the columns of the schema before `group_seq`, and a
    /// cell of a group that no longer exists.
    static var oldRows: [String] {
        let (a, b, h, m) = (key.id, other.id, hour, hour * 60)
        return """
            INSERT INTO groups (group_id, app_id, endpoint, path, kind, first_seen, last_seen, sample_message)
            VALUES ('\(a)', 'com.example.shop', 'GET /v2/posts', '$.results[*].title', 'keyNotFound', 0, 1, 'kept sample'),
                   ('\(b)', 'com.example.shop', 'GET /v2/posts', '$.results[*].id', 'typeMismatch', 0, 1, NULL);
            INSERT INTO group_hours (group_id, hour, count, exact_installs)
            VALUES ('\(a)', \(h), 5, 2), ('\(b)', \(h), 3, 1), ('gone', \(h), 99, 0);
            INSERT INTO group_minutes (group_id, minute, count, exact_installs)
            VALUES ('\(a)', \(m), 5, 2), ('\(b)', \(m), 3, 1);
            INSERT INTO group_hour_versions (group_id, hour, version, count)
            VALUES ('\(a)', \(h), '5.2.0', 4), ('\(a)', \(h), '5.1.0', 1), ('\(b)', \(h), '5.2.0', 3);
            INSERT INTO group_hour_expected (group_id, hour, expected, count)
            VALUES ('\(a)', \(h), 'String', 5), ('\(b)', \(h), 'Int', 3);
            INSERT INTO group_hour_installs (group_id, hour, install_hash)
            VALUES ('\(a)', \(h), 11), ('\(a)', \(h), 12), ('\(b)', \(h), 13);
            INSERT INTO group_minute_installs (group_id, minute, install_hash)
            VALUES ('\(a)', \(m), 11), ('\(a)', \(m), 12), ('\(b)', \(m), 13)
            """.components(separatedBy: ";\n")
    }
}

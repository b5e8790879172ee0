import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// Decode counts per app version (docs/wire-format.md#decode-counts): what a version's rate divides by, in the
/// `version` filter of the summary and in the release check, on every backend.
@Suite("Decodes per version")
struct VersionDecodesStoreTests {
    static let day = FieldsQuery(since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))

    @Test(
        "each version's rate divides its own reports by its own decodes; without a version, all of them",
        arguments: StoreBackend.allCases)
    func ratePerVersion(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(
                10, at: "2026-11-21T09:00:00Z", version: "5.2.0", decodes: ["GET /v2/posts": 1000])
            try await fixture.send(
                20, at: "2026-11-21T09:10:00Z", version: "5.3.0", decodes: ["GET /v2/posts": 400, "GET /v2/users": 100])
            // Another app's decodes of the same version never count.
            try await fixture.send(
                1, at: "2026-11-21T09:10:00Z", version: "5.3.0", app: "com.example.other",
                decodes: ["GET /v2/posts": 7])

            var query = Self.day
            query.app = "com.example.shop"
            let all = try #require(try await fixture.store.fields(query).fields.first)
            #expect(all.count == 30)
            #expect(all.rate == 30.0 / 1400)

            query.version = "5.3.0"
            let newer = try await fixture.store.fields(query).fields
            #expect(newer.map(\.count) == [20])
            #expect(newer.map(\.rate) == [20.0 / 400])
            #expect(newer.map(\.versions) == [["5.3.0": 20]])

            query.version = "5.2.0"
            #expect(try await fixture.store.fields(query).fields.map(\.rate) == [0.01])
            query.version = "4.0.0"
            #expect(try await fixture.store.fields(query).fields.isEmpty)

            let counts = try await fixture.store.versionCounts(
                app: "com.example.shop", version: "5.3.0", environment: nil, since: Self.day.since,
                until: Self.day.until)
            #expect(counts.decodes == ["GET /v2/posts": 400, "GET /v2/users": 100])
            #expect(counts.fields.map(\.count) == [20])
            #expect(counts.fields.map(\.path) == ["$.results[*].title"])
            #expect(counts.fields.map(\.group) == [all.group])

            // Kept at both resolutions, like the decodes of every version.
            #expect(try await fixture.database.count("endpoint_version_hours") == 4)
            #expect(try await fixture.database.count("endpoint_version_minutes") == 4)
        }
    }

    @Test(
        "a recent window's edges read the per-minute decodes of the version, exact to the minute",
        arguments: StoreBackend.allCases)
    func minuteEdges(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let minute = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3600)
            try await fixture.send(
                3, at: RFC3339.string(from: minute), version: "5.3.0", decodes: ["GET /v2/posts": 300])
            // Decodes belong to the batch's receive minute, 30 seconds after the report: the same minute.
            let around = try await fixture.store.versionCounts(
                app: "com.example.shop", version: "5.3.0", environment: nil, since: minute.addingTimeInterval(-60),
                until: minute.addingTimeInterval(60))
            #expect(around.decodes == ["GET /v2/posts": 300])
            #expect(around.fields.map(\.count) == [3])
            let before = try await fixture.store.versionCounts(
                app: "com.example.shop", version: "5.3.0", environment: nil, since: minute.addingTimeInterval(-3600),
                until: minute)
            #expect(before == VersionCounts.empty)
        }
    }

    @Test(
        "decodes stored without a version (before they were kept per version) give a version no rate, never a guess",
        arguments: StoreBackend.allCases)
    func olderDecodesHaveNoVersion(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(5, at: "2026-11-21T09:00:00Z", version: "5.2.0")
            // What a collector of an earlier release stored: decodes of the app and endpoint, without version.
            let hour = Hour.index(of: date("2026-11-21T09:00:00Z"))
            try await fixture.database.execute(
                "INSERT INTO endpoint_hours (app_id, endpoint, hour, count) VALUES ('com.example.shop', 'GET /v2/posts', \(hour), 500)"
            )
            var query = Self.day
            #expect(try await fixture.store.fields(query).fields.map(\.rate) == [0.01])
            query.version = "5.2.0"
            let entries = try await fixture.store.fields(query).fields
            #expect(entries.map(\.count) == [5])
            #expect(entries.map(\.rate) == [nil])

            let verdict = try await fixture.store.check(
                ReleaseCheckQuery(
                    app: "com.example.shop", version: "5.2.0", since: Self.day.since, until: Self.day.until,
                    minDecodes: 1))
            #expect(verdict.verdict == .insufficient)
            #expect(verdict.decodes == 0)
        }
    }

    @Test(
        "retention deletes the decodes per version before the horizon, at both resolutions",
        arguments: StoreBackend.allCases)
    func retention(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(1, at: "2026-08-01T09:00:00Z", version: "5.1.0", decodes: ["GET /v2/posts": 10])
            try await fixture.send(1, at: "2026-11-21T09:00:00Z", version: "5.2.0", decodes: ["GET /v2/posts": 10])
            let horizon = date("2026-11-01T00:00:00Z")
            while try await fixture.store.deleteExpired(before: horizon, minutesBefore: horizon, limit: 1) > 0 {}
            for table in ["endpoint_version_hours", "endpoint_version_minutes"] {
                #expect(try await fixture.database.count(table) == 1, "\(table)")
                #expect(try await fixture.database.count(table, "version = '5.2.0'") == 1, "\(table)")
            }
        }
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// Environments (docs/wire-format.md#environments): one group spans them, and its counts, installs, versions,
/// decodes and first and last seen are kept per environment, on every backend.
@Suite("Environments")
struct EnvironmentStoreTests {
    static let day = FieldsQuery(
        app: "com.example.shop", since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))

    /// Production (no environment sent) at 09:00 and 11:00, staging at 10:00, from different installs and versions.
    func sendThreeEnvironments(_ fixture: StoreFixture) async throws {
        try await fixture.send(
            10, at: "2026-11-21T09:00:00Z", version: "5.2.0", install: "phone-1", decodes: ["GET /v2/posts": 1000])
        try await fixture.send(
            4, at: "2026-11-21T10:00:00Z", version: "5.3.0", install: "tester-1", decodes: ["GET /v2/posts": 40],
            environment: "staging")
        try await fixture.send(
            2, at: "2026-11-21T10:30:00Z", version: "5.3.0", install: "tester-2", decodes: ["GET /v2/posts": 10],
            environment: "staging")
        try await fixture.send(
            6, at: "2026-11-21T11:00:00Z", version: "5.3.0", install: "phone-2", decodes: ["GET /v2/posts": 500],
            environment: "production")
    }

    @Test(
        "one group spans environments; a filter counts one environment's reports, installs, versions, rate and first and last seen",
        arguments: StoreBackend.allCases)
    func filter(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase(seed: sendThreeEnvironments) { fixture in
            let all = try await fixture.store.fields(Self.day).fields
            #expect(all.count == 1)
            let field = try #require(all.first)
            #expect(field.count == 22)
            #expect(field.installs == 4)
            #expect(field.rate == 22.0 / 1550)
            #expect(field.versions == ["5.2.0": 10, "5.3.0": 12])
            #expect(field.firstSeen == date("2026-11-21T09:00:00Z"))

            var query = Self.day
            query.environment = "staging"
            let staging = try #require(try await fixture.store.fields(query).fields.first)
            #expect(staging.group == field.group)
            #expect(staging.count == 6)
            #expect(staging.installs == 2)
            #expect(staging.rate == 6.0 / 50)
            #expect(staging.versions == ["5.3.0": 6])
            #expect(staging.firstSeen == date("2026-11-21T10:00:00Z"))
            #expect(staging.lastSeen == date("2026-11-21T10:30:00Z"))

            query.environment = "production"
            let production = try #require(try await fixture.store.fields(query).fields.first)
            #expect(production.count == 16)
            #expect(production.installs == 2)
            #expect(production.rate == 16.0 / 1500)
            #expect(production.versions == ["5.2.0": 10, "5.3.0": 6])
            #expect(production.firstSeen == date("2026-11-21T09:00:00Z"))
            #expect(production.lastSeen == date("2026-11-21T11:00:00Z"))

            // Environment and version together: staging's 5.3.0 only.
            query.environment = "staging"
            query.version = "5.3.0"
            #expect(try await fixture.store.fields(query).fields.map(\.count) == [6])
            query.version = "5.2.0"
            #expect(try await fixture.store.fields(query).fields.isEmpty)

            query.version = nil
            query.environment = "debug"
            #expect(try await fixture.store.fields(query).fields.isEmpty)
        }
    }

    @Test(
        "the release check of one environment divides that environment's reports of the version by its decodes",
        arguments: StoreBackend.allCases)
    func releaseCheck(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase(seed: sendThreeEnvironments) { fixture in
            let (since, until) = (Self.day.since, Self.day.until)
            let staging = try await fixture.store.versionCounts(
                app: "com.example.shop", version: "5.3.0", environment: "staging", since: since, until: until)
            #expect(staging.decodes == ["GET /v2/posts": 50])
            #expect(staging.fields.map(\.count) == [6])
            let every = try await fixture.store.versionCounts(
                app: "com.example.shop", version: "5.3.0", environment: nil, since: since, until: until)
            #expect(every.decodes == ["GET /v2/posts": 550])
            #expect(every.fields.map(\.count) == [12])
        }
    }

    @Test(
        "installs past the sketch limit are still counted per environment after their cell is folded",
        arguments: StoreBackend.allCases)
    func sketchedInstalls(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // 1,200 installs in one group-hour, a third of them in staging: the cell folds into sketches.
            for index in 0..<1200 {
                try await fixture.send(
                    1, at: "2026-11-21T09:00:00Z", install: "install-\(index)",
                    environment: index % 3 == 0 ? "staging" : nil)
            }
            var query = Self.day
            let all = try #require(try await fixture.store.fields(query).fields.first)
            #expect(abs(all.installs - 1200) <= 24)
            query.environment = "staging"
            let staging = try #require(try await fixture.store.fields(query).fields.first)
            #expect(abs(staging.installs - 400) <= 8)
            #expect(staging.count == 400)
            query.environment = "production"
            let production = try #require(try await fixture.store.fields(query).fields.first)
            #expect(abs(production.installs - 800) <= 16)
        }
    }
}

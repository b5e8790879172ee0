import DecodeWatchCore
import Foundation
import Testing

@testable import DecodeWatchStore

/// The environment filter beyond the summary, alike on every backend: the environments the dashboard offers, a
/// group's failures per environment, the digest of one environment and alert rules that watch one.
@Suite("Environments in the dashboard, the digest and alerts")
struct EnvironmentFilterStoreTests {
    static let day = DigestPeriod(since: date("2026-11-03T00:00:00Z"), until: date("2026-11-04T00:00:00Z"))

    /// `$.title` fails in production on the day and in staging the day before and on the day; `$.name` only in
    /// production on the day; `$.price` in staging the day before and in production on the day.
    static func seed(_ fixture: StoreFixture) async throws {
        try await fixture.send(2, at: "2026-11-02T06:00:00Z", path: ["title"], install: "b", environment: "staging")
        try await fixture.send(3, at: "2026-11-02T08:00:00Z", path: ["price"], install: "b", environment: "staging")
        try await fixture.send(
            10, at: "2026-11-03T05:00:00Z", path: ["title"], install: "a", decodes: ["GET /v2/posts": 100])
        try await fixture.send(
            4, at: "2026-11-03T06:00:00Z", path: ["title"], install: "b", decodes: ["GET /v2/posts": 8],
            environment: "staging")
        try await fixture.send(7, at: "2026-11-03T07:00:00Z", path: ["name"], endpoint: "GET /v2/users", install: "a")
        try await fixture.send(
            5, at: "2026-11-03T09:00:00Z", path: ["price"], install: "a", environment: EnvironmentName.production)
    }

    @Test(
        "the environments offered are those groups reported in, sorted; a group's breakdown counts each in the window",
        arguments: StoreBackend.allCases)
    func environmentsAndBreakdown(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            #expect(try await fixture.store.environments().isEmpty)
            try await Self.seed(fixture)
            #expect(try await fixture.store.environments() == ["production", "staging"])

            let title = try await fixture.group(path: "$.title")
            let breakdown = try await fixture.store.environmentBreakdown(
                group: title, since: Self.day.since, until: Self.day.until)
            #expect(
                breakdown == [
                    EnvironmentFailures(
                        environment: "production", count: 10, firstSeen: date("2026-11-03T05:00:00Z"),
                        lastSeen: date("2026-11-03T05:00:00Z")),
                    EnvironmentFailures(
                        environment: "staging", count: 4, firstSeen: date("2026-11-02T06:00:00Z"),
                        lastSeen: date("2026-11-03T06:00:00Z")),
                ])
            // An environment quiet in the window is still listed, at 0.
            let price = try await fixture.group(path: "$.price")
            let before = try await fixture.store.environmentBreakdown(
                group: price, since: Self.day.previous.since, until: Self.day.previous.until)
            #expect(before.map(\.environment) == ["staging", "production"])
            #expect(before.map(\.count) == [3, 0])
        }
    }

    @Test(
        "a digest of one environment counts its failures, installs, decodes and hours only, and new means new there",
        arguments: StoreBackend.allCases)
    func digestOfOneEnvironment(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase(seed: Self.seed) { fixture in
            let now = date("2026-11-04T00:10:00Z")
            let staging = try await fixture.store.digest(for: Self.day, environment: "staging", now: now)
            #expect(staging.environment == "staging")
            #expect(staging.totals.count == 4 && staging.totals.previousCount == 5)
            #expect(staging.totals.groups == 1 && staging.totals.endpoints == 1 && staging.totals.installs == 1)
            let entry = try #require(staging.endpoints.first?.fields.first)
            #expect(entry.path == "$.title" && entry.count == 4 && entry.previousCount == 2)
            #expect(entry.rate == 0.5)  // 4 failures in staging's 8 decodes
            #expect(entry.hourly[5] == 0 && entry.hourly[6] == 4)
            #expect(staging.new.isEmpty)

            let production = try await fixture.store.digest(
                for: Self.day, environment: EnvironmentName.production, now: now)
            #expect(production.totals.count == 22 && production.totals.previousCount == 0)
            #expect(production.totals.groups == 3 && production.totals.installs == 1)
            // Each first reported in production on the day, though two had failed in staging before.
            #expect(Set(production.new.map(\.path)) == ["$.title", "$.name", "$.price"])

            let every = try await fixture.store.digest(for: Self.day, now: now)
            #expect(every.environment == nil)
            #expect(every.totals.count == 26 && every.totals.installs == 2)
            #expect(every.new.map(\.path) == ["$.name"])
        }
    }

    @Test(
        "a rule watching staging fires on staging reports and not on production ones; a rule without one counts both",
        arguments: StoreBackend.allCases)
    func alertRuleOfOneEnvironment(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let now = date("2026-11-21T09:05:00Z")
            func rule(_ name: String, environment: String?) throws -> AlertRule {
                try AlertRuleDraft(
                    name: name, when: "count-above:2", webhook: "https://hooks.example.com/T/B/secret",
                    environment: environment
                ).validate(now: now)
            }
            let staging = try rule("staging", environment: "staging")
            var everywhere = try rule("everywhere", environment: nil)
            everywhere.createdAt = staging.createdAt.addingTimeInterval(1)
            try await fixture.store.addAlertRule(staging)
            try await fixture.store.addAlertRule(everywhere)
            #expect(try await fixture.store.alertRules().map(\.environment) == ["staging", nil])

            try await fixture.send(30, at: "2026-11-21T09:00:00Z", path: ["live"])
            try await fixture.send(1, at: "2026-11-21T09:01:00Z", path: ["live"], environment: "staging")
            try await fixture.send(5, at: "2026-11-21T09:02:00Z", path: ["staged"], environment: "staging")
            let pending = try await fixture.store.pendingAlerts(for: [staging, everywhere], now: now)
            let matched = Dictionary(
                uniqueKeysWithValues: pending.map { ($0.rule.name, $0.groups.map { "\($0.path) \($0.count)" }) })
            #expect(matched == ["staging": ["$.staged 5"], "everywhere": ["$.live 31", "$.staged 5"]])

            let fired = try #require(pending.first { $0.rule.name == "staging" })
            let alert = try #require(
                try await fixture.store.claimAlert(fired, token: "t", cooldown: 3600, publicURL: nil))
            #expect(alert.fields.map(\.summary.count) == [5])
        }
    }

    @Test("an alert rule's environment must be a name batches can send", arguments: ["", "stag ing", "prod/eu"])
    func badEnvironment(name: String) {
        #expect {
            try AlertRuleDraft(
                name: "n", when: "new", webhook: "https://hooks.example.com/x", environment: name
            ).validate()
        } throws: { ($0 as? QueryError)?.message.hasPrefix("--environment '\(name)' must be 1–64 characters") == true }
    }
}

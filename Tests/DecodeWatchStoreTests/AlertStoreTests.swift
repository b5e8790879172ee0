import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// Alert rules and claims behave alike on every backend (SQLite and PostgreSQL).
@Suite("Alert store conformance")
struct AlertStoreTests {
    static let now = date("2026-11-21T09:05:00Z")

    static func rule(_ when: String, name: String = "posts", over: String = "10m", endpoint: String? = nil)
        throws -> AlertRule
    {
        try AlertRuleDraft(
            name: name, endpoint: endpoint, when: when, over: over, webhook: "https://hooks.example.com/T/B/secret"
        ).validate(now: now)
    }

    @Test(
        "rules are stored, listed oldest first, refused on a duplicate name, and removed with their claims",
        arguments: StoreBackend.allCases)
    func ruleLifecycle(backend: StoreBackend) async throws {
        try await backend.withFreshStore { store in
            let first = try Self.rule("new", name: "first")
            var second = try Self.rule("rate-above:5", name: "second", endpoint: "GET /v2/posts/42")
            second.createdAt = first.createdAt.addingTimeInterval(1)
            try await store.addAlertRule(first)
            try await store.addAlertRule(second)
            #expect(try await store.alertRules() == [first, second])
            #expect(second.endpoint == "GET /v2/posts/{id}")
            await #expect {
                try await store.addAlertRule(try Self.rule("new", name: "first"))
            } throws: { ($0 as? StoreError)?.code == .conflict }

            try await store.removeAlertRule(id: first.id)
            #expect(try await store.alertRules() == [second])
            await #expect {
                try await store.removeAlertRule(id: first.id)
            } throws: { ($0 as? StoreError)?.code == .notFound }
        }
    }

    @Test(
        "decode counts are known per app, endpoint and environment once a client reports them",
        arguments: StoreBackend.allCases)
    func decodeCounts(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let store = fixture.store
            #expect(try await store.hasDecodeCounts(app: nil, endpoint: nil, environment: nil) == false)
            try await fixture.send(decodes: ["GET /v2/posts": 100], environment: "staging")
            #expect(try await store.hasDecodeCounts(app: nil, endpoint: nil, environment: nil))
            #expect(
                try await store.hasDecodeCounts(app: "com.example.shop", endpoint: "GET /v2/posts", environment: nil))
            #expect(
                try await store.hasDecodeCounts(app: "com.example.shop", endpoint: "GET /v2/users", environment: nil)
                    == false)
            #expect(try await store.hasDecodeCounts(app: "com.example.other", endpoint: nil, environment: nil) == false)
            #expect(try await store.hasDecodeCounts(app: nil, endpoint: "GET /v2/posts", environment: "staging"))
            // A rate rule watching production has nothing to divide by while only staging reports decodes.
            #expect(try await store.hasDecodeCounts(app: nil, endpoint: nil, environment: "production") == false)
        }
    }

    @Test(
        "new, count and rate rules match from the rollups exact to the minute; muted groups never match",
        arguments: StoreBackend.allCases)
    func matching(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // An old group, seen before the window and again inside it; a new one; a muted new one.
            try await fixture.send(5, at: "2026-11-21T08:00:00Z", path: ["old"])
            try await fixture.send(30, at: "2026-11-21T09:00:00Z", path: ["old"], decodes: ["GET /v2/posts": 100])
            try await fixture.send(2, at: "2026-11-21T09:01:00Z", path: ["fresh"])
            try await fixture.send(1, at: "2026-11-21T09:02:00Z", path: ["quiet"])
            try await fixture.store.apply(
                .mute(.period(86_400)), to: try await fixture.group(path: "$.quiet"), at: Self.now, by: "local:test")
            let rules = [
                try Self.rule("new", name: "new"), try Self.rule("count-above:20", name: "count"),
                try Self.rule("rate-above:25", name: "rate"), try Self.rule("regressed", name: "regressed"),
            ]
            let pending = try await fixture.store.pendingAlerts(for: rules, now: Self.now)
            let matched = Dictionary(uniqueKeysWithValues: pending.map { ($0.rule.name, $0.groups.map(\.path)) })
            #expect(matched == ["new": ["$.fresh"], "count": ["$.old"], "rate": ["$.old"]])
            // The window starts at 08:55: the report at 08:00 is outside it, so the count is 30, not 35.
            #expect(pending.first { $0.rule.name == "count" }?.groups.first?.count == 30)
            #expect(pending.first { $0.rule.name == "rate" }?.groups.first?.rate == 0.3)
        }
    }

    @Test(
        "windows read together in one pass give each window exactly what it gives read alone",
        arguments: StoreBackend.allCases)
    func windowsTogether(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // Reports at the edges of 5 min, 10 min, 1 h and 1 day back from 09:05, decodes inside some.
            try await fixture.send(1, at: "2026-11-20T09:05:00Z", path: ["day"])
            try await fixture.send(2, at: "2026-11-21T08:04:59Z", path: ["hour"])
            try await fixture.send(3, at: "2026-11-21T08:05:00Z", path: ["hour"], decodes: ["GET /v2/posts": 40])
            try await fixture.send(4, at: "2026-11-21T08:54:59Z", path: ["ten"])
            try await fixture.send(5, at: "2026-11-21T08:55:00Z", path: ["ten"], decodes: ["GET /v2/posts": 10])
            try await fixture.send(6, at: "2026-11-21T09:00:00Z", path: ["five"])
            try await fixture.send(7, at: "2026-11-21T09:04:59Z", path: ["hour"], version: "6.0.0")
            let windows: [TimeInterval] = [300, 600, 3600, 86_400]
            let together = try await fixture.store.alertCandidates(
                windows: windows, environment: nil, until: Self.now, now: Self.now)
            for window in windows {
                let alone = try await fixture.store.alertCandidates(
                    windows: [window], environment: nil, until: Self.now, now: Self.now)
                #expect(together[window] == alone[window], "window \(window)")
            }
            #expect(together[300]?.map(\.count) == [7, 6])
            #expect(together[600]?.map(\.count) == [7, 6, 5])
            #expect(together[3600]?.map(\.count) == [10, 9, 6])
            #expect(together[86_400]?.map(\.count) == [12, 9, 6, 1])
            #expect(together[600]?.first { $0.path == "$.ten" }?.rate == 0.5)
        }
    }

    @Test(
        "a group alerts once per rule until the cooldown passes or it is resolved and comes back as regressed",
        arguments: StoreBackend.allCases)
    func claimsAndEpisodes(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let store = fixture.store
            let rule = try Self.rule("count-above:0")
            try await store.addAlertRule(rule)
            try await fixture.send(3, at: "2026-11-21T09:00:00Z")
            func claim(at now: Date) async throws -> Alert? {
                let pending = try await store.pendingAlerts(for: [rule], now: now)
                guard let first = pending.first else { return nil }
                return try await store.claimAlert(
                    first, token: UUID().uuidString, cooldown: 3600, publicURL: URL(string: "https://dw.example.com"))
            }
            let alert = try #require(try await claim(at: Self.now))
            #expect(alert.total == 1)
            let field = try #require(alert.fields.first)
            #expect(field.summary.versions == ["5.2.0": 3] && field.summary.status == .new)
            #expect(field.url?.absoluteString == "https://dw.example.com/groups/\(field.summary.group)")
            #expect(try await claim(at: Self.now.addingTimeInterval(60)) == nil)

            // Resolved, then seen again: a new episode, which alerts at once as regressed.
            try await store.resolve(group: field.summary.group, at: date("2026-11-21T09:06:00Z"))
            try await fixture.send(1, at: "2026-11-21T09:07:00Z", version: "5.3.0")
            let regressed = try #require(try await claim(at: date("2026-11-21T09:08:00Z")))
            #expect(regressed.fields.first?.summary.status == .regressed)
            #expect(try await claim(at: date("2026-11-21T09:09:00Z")) == nil)

            // After the cooldown, still failing: alerts again.
            try await fixture.send(1, at: "2026-11-21T10:10:00Z", version: "5.3.0")
            #expect(try await claim(at: date("2026-11-21T10:11:00Z")) != nil)
        }
    }

    @Test(
        "a failed delivery gives its claims back, so the next evaluation alerts again", arguments: StoreBackend.allCases
    )
    func release(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let rule = try Self.rule("new")
            try await fixture.send(1, at: "2026-11-21T09:00:00Z")
            let pending = try #require(try await fixture.store.pendingAlerts(for: [rule], now: Self.now).first)
            #expect(try await fixture.store.claimAlert(pending, token: "a", cooldown: 3600, publicURL: nil) != nil)
            #expect(try await fixture.store.claimAlert(pending, token: "b", cooldown: 3600, publicURL: nil) == nil)
            try await fixture.store.releaseAlerts(rule: rule.id, token: "a")
            #expect(try await fixture.store.claimAlert(pending, token: "c", cooldown: 3600, publicURL: nil) != nil)
        }
    }

    @Test(
        "replicas claiming the same 600 groups at once split nothing: each group is claimed exactly once",
        arguments: StoreBackend.allCases)
    func concurrentClaims(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let groups = (0..<600).map { index in
                AlertCandidate(
                    group: String(format: "g%04d", index), app: "a", endpoint: "GET /x", path: "$.f\(index)",
                    kind: .keyNotFound, count: 1, rate: nil, firstSeen: Self.now, status: .new, resolvedAt: nil)
            }
            var stores = [fixture.store]
            for _ in 0..<3 { stores.append(try await fixture.reopen().store) }
            let claims = try await withThrowingTaskGroup(of: [String].self) { tasks in
                for (index, store) in stores.enumerated() {
                    tasks.addTask {
                        try await store.claimAlerts(
                            rule: "rule", groups: groups, token: "t\(index)", now: Self.now, cooldown: 3600)
                    }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            let all = claims.flatMap { $0 }
            #expect(all.count == 600 && Set(all).count == 600)
        }
    }
}

import DecodeWatchCore
import Foundation
import Testing

@testable import DecodeWatchStore

@Suite struct DigestLifecycleTests {
    @Test(
        "new in its first period, ongoing later, resolved when marked, regressed with the version that brought it back",
        arguments: StoreBackend.allCases)
    func transitions(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(3, at: "2026-11-02T10:00:00Z", version: "5.2.0")
            let id = try await fixture.group(path: "$.results[*].title")

            let day2 = DigestPeriod(since: date("2026-11-02T00:00:00Z"), until: date("2026-11-03T00:00:00Z"))
            var digest = try await fixture.store.digest(for: day2, now: date("2026-11-03T00:10:00Z"))
            #expect(digest.new.map(\.group) == [id])

            try await fixture.send(4, at: "2026-11-03T10:00:00Z", version: "5.2.0")
            let day3 = DigestPeriod(since: date("2026-11-03T00:00:00Z"), until: date("2026-11-04T00:00:00Z"))
            digest = try await fixture.store.digest(for: day3, now: date("2026-11-04T00:10:00Z"))
            #expect(digest.new.isEmpty)
            #expect(digest.endpoints.first?.fields.first?.status == .ongoing)

            try await fixture.store.resolve(group: id, at: date("2026-11-03T12:00:00Z"))
            var lifecycle = try #require(try await fixture.store.lifecycles(groups: [id])[id])
            #expect(lifecycle.state == .resolved)
            #expect(lifecycle.status(since: day3.since) == .resolved)

            // A late report that occurred before the resolution does not reopen the group.
            try await fixture.send(1, at: "2026-11-03T11:00:00Z", version: "5.2.0")
            lifecycle = try #require(try await fixture.store.lifecycles(groups: [id])[id])
            #expect(lifecycle.state == .resolved)

            try await fixture.send(2, at: "2026-11-04T09:00:00Z", version: "5.3.0")
            lifecycle = try #require(try await fixture.store.lifecycles(groups: [id])[id])
            #expect(lifecycle.state == .regressed)
            #expect(lifecycle.regressedVersion == "5.3.0")

            let day4 = DigestPeriod(since: date("2026-11-04T00:00:00Z"), until: date("2026-11-05T00:00:00Z"))
            digest = try await fixture.store.digest(for: day4, now: date("2026-11-05T00:10:00Z"))
            #expect(digest.regressed.map(\.group) == [id])
            #expect(digest.regressed.first?.regressedVersion == "5.3.0")
            #expect(digest.new.isEmpty)

            // The next day the regression is old news: the group is ongoing again, not regressed.
            try await fixture.send(2, at: "2026-11-05T09:00:00Z", version: "5.3.0")
            let day5 = DigestPeriod(since: date("2026-11-05T00:00:00Z"), until: date("2026-11-06T00:00:00Z"))
            digest = try await fixture.store.digest(for: day5, now: date("2026-11-06T00:10:00Z"))
            #expect(digest.regressed.isEmpty)
            #expect(digest.endpoints.first?.fields.first?.status == .ongoing)
        }
    }

    @Test(
        "a trailing period (--since 24h) counts the minutes at its edges exactly, in its totals and its fields",
        arguments: StoreBackend.allCases)
    func trailingPeriodIsExactToTheMinute(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let now = Date()
            let period = DigestPeriod.trailing(86_400, before: now)
            func at(_ offset: TimeInterval) -> String { RFC3339.string(from: period.since.addingTimeInterval(offset)) }
            try await fixture.send(5, at: at(-20 * 60), install: "before")
            try await fixture.send(2, at: at(10 * 60), install: "first")
            try await fixture.send(3, at: at(86_400 - 10 * 60), install: "last")
            let digest = try await fixture.store.digest(for: period, now: now)
            #expect(digest.totals.count == 5)
            #expect(digest.totals.installs == 2)
            #expect(digest.totals.previousCount == 5)
            let field = try #require(digest.endpoints.first?.fields.first)
            #expect(field.count == 5)
            #expect(field.previousCount == 5)
        }
    }

    @Test("auto-resolve resolves only groups quiet for longer than the quiet time", arguments: StoreBackend.allCases)
    func autoResolve(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(1, at: "2026-11-01T10:00:00Z", path: ["old"])
            try await fixture.send(1, at: "2026-11-09T10:00:00Z", path: ["recent"])
            let old = try await fixture.group(path: "$.old")
            let recent = try await fixture.group(path: "$.recent")
            let now = date("2026-11-10T00:00:00Z")

            let resolved = try await fixture.store.autoResolve(quietFor: 7 * 86_400, now: now)
            #expect(resolved == [old])
            let lifecycles = try await fixture.store.lifecycles(groups: [old, recent])
            #expect(lifecycles[old]?.state == .resolved)
            #expect(lifecycles[old]?.resolvedAt == now)
            #expect(lifecycles[recent]?.state == .open)
            #expect(try await fixture.store.autoResolve(quietFor: 7 * 86_400, now: now).isEmpty)

            try await fixture.send(1, at: "2026-11-10T08:00:00Z", path: ["old"], version: "6.0.0")
            #expect(try await fixture.store.lifecycles(groups: [old])[old]?.regressedVersion == "6.0.0")
        }
    }
}

@Suite struct DigestStoreQueryTests {
    @Test("hourly counts, totals and the growth comparison come from the rollups", arguments: StoreBackend.allCases)
    func periodsCompared(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // growing: 10 → 40; fading: 30 → 5; steady small: 5 → 12; a second app is filtered out.
            try await fixture.send(10, at: "2026-11-02T05:00:00Z", path: ["grow"], install: "a")
            try await fixture.send(15, at: "2026-11-03T05:00:00Z", path: ["grow"], install: "a")
            try await fixture.send(25, at: "2026-11-03T06:30:00Z", path: ["grow"], install: "b")
            try await fixture.send(30, at: "2026-11-02T07:00:00Z", path: ["fade"], endpoint: "GET /v2/users")
            try await fixture.send(5, at: "2026-11-03T07:00:00Z", path: ["fade"], endpoint: "GET /v2/users")
            try await fixture.send(5, at: "2026-11-02T08:00:00Z", path: ["small"])
            try await fixture.send(12, at: "2026-11-03T08:00:00Z", path: ["small"])
            try await fixture.send(99, at: "2026-11-03T08:00:00Z", path: ["other"], app: "com.example.other")
            let grow = try await fixture.group(path: "$.grow")

            let period = DigestPeriod(since: date("2026-11-03T00:00:00Z"), until: date("2026-11-04T00:00:00Z"))
            let digest = try await fixture.store.digest(
                for: period, app: "com.example.shop", now: date("2026-11-04T00:00:00Z"))
            #expect(digest.growing.map(\.path) == ["$.grow"])
            #expect(digest.fading.map(\.path) == ["$.fade"])
            #expect(digest.growing[0].count == 40 && digest.growing[0].previousCount == 10)
            #expect(digest.growing[0].installs == 2)
            #expect(digest.growing[0].hourly[5] == 15 && digest.growing[0].hourly[6] == 25)
            #expect(digest.totals.count == 57 && digest.totals.previousCount == 45)
            #expect(digest.totals.groups == 3 && digest.totals.endpoints == 2 && digest.totals.installs == 3)
            #expect(digest.endpoints.map(\.endpoint) == ["GET /v2/posts", "GET /v2/users"])

            let hours = try await fixture.store.hourlyCounts(groups: [grow], since: period.since, until: period.until)
            #expect(
                hours[grow] == [
                    Hour.index(of: date("2026-11-03T05:00:00Z")): 15,
                    Hour.index(of: date("2026-11-03T06:00:00Z")): 25,
                ])

            let everyApp = try await fixture.store.digestTotals(app: nil, since: period.since, until: period.until)
            #expect(everyApp.count == 156 && everyApp.groups == 4)
        }
    }
}

@Suite struct DigestRunClaimTests {
    let key = DigestRunKey(
        period: DigestPeriod(since: date("2026-11-03T00:00:00Z"), until: date("2026-11-04T00:00:00Z")),
        destination: "webhook:0123456789abcdef")
    let now = date("2026-11-04T00:05:00Z")

    @Test(
        "the first claim wins; a fresh claim blocks; delivery is recorded and ends all claims",
        arguments: StoreBackend.allCases)
    func claimLifecycle(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture throws in
            let store = fixture.store
            #expect(try await store.digestRun(key) == nil)
            #expect(try await store.claimDigestRun(key, token: "a", now: now, staleAfter: 900) == .claimed(attempt: 1))
            #expect(
                try await store.claimDigestRun(key, token: "b", now: now.addingTimeInterval(60), staleAfter: 900)
                    == .inProgress(since: now))
            #expect(try await store.markDigestDelivered(key, token: "a", at: now.addingTimeInterval(5)))
            let later = now.addingTimeInterval(86_400)
            #expect(
                try await store.claimDigestRun(key, token: "c", now: later, staleAfter: 900)
                    == .delivered(at: now.addingTimeInterval(5)))
            let record = try #require(try await store.digestRun(key))
            #expect(record.deliveredAt == now.addingTimeInterval(5) && record.attempts == 1 && record.lastError == nil)
        }
    }

    @Test("a claim left by a crashed run can be taken over only after the timeout", arguments: StoreBackend.allCases)
    func staleClaim(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture throws in
            let store = fixture.store
            #expect(
                try await store.claimDigestRun(key, token: "crashed", now: now, staleAfter: 900) == .claimed(attempt: 1)
            )
            #expect(
                try await store.claimDigestRun(key, token: "b", now: now.addingTimeInterval(899), staleAfter: 900)
                    == .inProgress(since: now))
            #expect(
                try await store.claimDigestRun(key, token: "b", now: now.addingTimeInterval(901), staleAfter: 900)
                    == .claimed(attempt: 2))
            // The crashed run's late confirmation does not steal or duplicate the record.
            #expect(
                try await store.markDigestDelivered(key, token: "crashed", at: now.addingTimeInterval(902)) == false)
            #expect(
                try await store.claimDigestRun(key, token: "c", now: now.addingTimeInterval(2000), staleAfter: 900)
                    == .delivered(at: now.addingTimeInterval(902)))
        }
    }

    @Test("a released claim (failed delivery) is retried at once and keeps the error", arguments: StoreBackend.allCases)
    func releasedClaim(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture throws in
            let store = fixture.store
            _ = try await store.claimDigestRun(key, token: "a", now: now, staleAfter: 900)
            try await store.releaseDigestRun(key, token: "a", error: "HTTP 500", at: now)
            #expect(try await store.digestRun(key)?.lastError == "HTTP 500")
            #expect(
                try await store.claimDigestRun(key, token: "b", now: now.addingTimeInterval(1), staleAfter: 900)
                    == .claimed(attempt: 2))
            // Another destination or period is a separate delivery.
            var other = key
            other.destination = "webhook:fedcba9876543210"
            #expect(
                try await store.claimDigestRun(other, token: "x", now: now, staleAfter: 900) == .claimed(attempt: 1))
        }
    }

    @Test(
        "concurrent claims from separate connections: exactly one wins", arguments: StoreBackend.allCases, [2, 8])
    func concurrentClaims(backend: StoreBackend, contenders: Int) async throws {
        try await backend.withFreshDatabase { fixture in
            var stores: [any CollectorStore] = []
            for _ in 0..<contenders { stores.append(try await fixture.reopen().store) }
            let key = self.key
            let now = self.now
            let outcomes = try await withThrowingTaskGroup(of: DigestClaim.self) { group in
                for (index, store) in stores.enumerated() {
                    group.addTask { try await store.claimDigestRun(key, token: "t\(index)", now: now, staleAfter: 900) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .claimed = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { $0 == .inProgress(since: now) }.count == contenders - 1)
        }
    }
}

import DecodeWatchCore
import Foundation
import Testing

@testable import DecodeWatchStore

/// Mutes, resolutions in the next version and the status history, on every backend.
@Suite("Group actions in storage")
struct GroupActionStoreTests {
    static let window = ReportStoreConformanceTests.window
    static let path = "$.results[*].title"

    @Test("a mute for a period holds until it ends and is recorded in the history", arguments: StoreBackend.allCases)
    func muteForPeriod(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(2)
            let group = try await Self.decide(.mute(.period(3600)), in: fixture)
            let during = try await fixture.store.actionStates(groups: [group], now: Self.decidedAt + 1800)
            #expect(during[group]?.isMuted == true)
            #expect(during[group]?.mutedUntil == Self.decidedAt + 3600)
            let after = try await fixture.store.actionStates(groups: [group], now: Self.decidedAt + 3601)
            #expect(after[group]?.isMuted == false)
            let history = try await fixture.store.statusHistory(group: group)
            #expect(
                history == [
                    GroupStatusEvent(at: Self.decidedAt, action: "mute", detail: "for 1h", actor: "local:test")
                ])
        }
    }

    @Test("a mute for N failures ends once N more failures arrive", arguments: StoreBackend.allCases)
    func muteForCount(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(5)
            let group = try await Self.decide(.mute(.occurrences(3)), in: fixture)
            try await fixture.send(2, at: "2026-11-21T10:30:00Z")
            let before = try await fixture.store.actionStates(groups: [group], now: Self.decidedAt)
            #expect(before[group]?.isMuted == true)
            #expect(before[group]?.mutedFailuresLeft == 1)
            try await fixture.send(1, at: "2026-11-21T10:40:00Z")
            let after = try await fixture.store.actionStates(groups: [group], now: Self.decidedAt)
            #expect(after[group]?.isMuted == false)
            #expect(after[group]?.mutedFailuresLeft == 0)
        }
    }

    @Test(
        "groups are found by the start of their id, in id order, with wildcards taken literally",
        arguments: StoreBackend.allCases)
    func idPrefix(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let (group, other) = try await Self.twoGroups(in: fixture)
            let store = fixture.store
            #expect(try await store.groups(withIDPrefix: group, limit: 10).map(\.id) == [group])
            let byStart = try await store.groups(withIDPrefix: String(group.prefix(8)), limit: 10)
            #expect(byStart.map(\.id) == (other.hasPrefix(group.prefix(8)) ? [group, other].sorted() : [group]))
            #expect(byStart.first { $0.id == group }?.path == Self.path)
            #expect(try await store.groups(withIDPrefix: "", limit: 10).map(\.id) == [group, other].sorted())
            #expect(try await store.groups(withIDPrefix: "", limit: 1).map(\.id) == [[group, other].min()!])
            #expect(try await store.groups(withIDPrefix: "%", limit: 10).isEmpty)
            #expect(try await store.groups(withIDPrefix: String(group.prefix(6)) + "_", limit: 10).isEmpty)
            #expect(try await store.groups(withIDPrefix: "g", limit: 10).isEmpty)
        }
    }

    /// When the tests decide about a group, unless they say otherwise.
    static let decidedAt = date("2026-11-21T10:00:00Z")

    /// Takes `action` at ``decidedAt``, as `local:test`, on the group of the failures at ``path``.
    /// - Returns: the group id.
    static func decide(_ action: GroupAction, in fixture: StoreFixture) async throws -> String {
        let group = try await fixture.group(path: path)
        try await fixture.store.apply(action, to: group, at: decidedAt, by: "local:test")
        return group
    }

    /// Sends one failure at ``path`` and one at `$.other`.
    /// - Returns: the two group ids.
    static func twoGroups(in fixture: StoreFixture) async throws -> (String, String) {
        try await fixture.send(1)
        try await fixture.send(1, path: ["other"])
        return (try await fixture.group(path: path), try await fixture.group(path: "$.other"))
    }

    @Test("unmute ends a mute; a group without decisions has no state", arguments: StoreBackend.allCases)
    func unmute(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            let (group, other) = try await Self.twoGroups(in: fixture)
            let at = date("2026-11-21T10:00:00Z")
            try await fixture.store.apply(.mute(.period(86_400)), to: group, at: at, by: "local:test")
            try await fixture.store.apply(.unmute, to: group, at: at.addingTimeInterval(60), by: "local:test")
            let states = try await fixture.store.actionStates(groups: [group, other], now: at.addingTimeInterval(120))
            #expect(states[group] == nil)
            #expect(states[other] == nil)
            #expect(try await fixture.store.statusHistory(group: group).map(\.action) == ["mute", "unmute"])
        }
    }

    @Test(
        "resolved in the next version: an old version's report keeps it resolved, a newer version's regresses it",
        arguments: StoreBackend.allCases)
    func resolveInNextVersion(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(1, at: "2026-11-21T08:00:00Z", version: "5.9.0")
            try await fixture.send(1, at: "2026-11-21T08:10:00Z", version: "5.10.0")
            let group = try await fixture.group(path: Self.path)
            let at = date("2026-11-21T08:30:00Z")
            try await fixture.store.apply(.resolveInNextVersion, to: group, at: at, by: "local:test")
            try await fixture.send(1, at: "2026-11-21T09:00:00Z", version: "5.9.0")
            let old = try await fixture.store.decidedFields(Self.window, now: at).summary.fields
            #expect(old.first?.status == .resolved)
            #expect(
                try await fixture.store.actionStates(groups: [group], now: at)[group]?.resolvedThroughVersion
                    == "5.10.0")
            try await fixture.send(1, at: "2026-11-21T09:30:00Z", version: "5.11.0")
            let newer = try await fixture.store.decidedFields(Self.window, now: at).summary.fields
            #expect(newer.first?.status == .regressed)
            let history = try await fixture.store.statusHistory(group: group)
            #expect(
                history == [
                    GroupStatusEvent(
                        at: at, action: "resolve-in-next-version", detail: "through 5.10.0", actor: "local:test")
                ])
        }
    }

    @Test("a plain resolve replaces a resolution in the next version", arguments: StoreBackend.allCases)
    func plainResolveReplacesNextVersion(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(1, at: "2026-11-21T08:00:00Z", version: "5.2.0")
            let group = try await fixture.group(path: Self.path)
            try await fixture.store.apply(
                .resolveInNextVersion, to: group, at: date("2026-11-21T08:30:00Z"), by: "local:test")
            try await fixture.store.apply(.resolve, to: group, at: date("2026-11-21T08:40:00Z"), by: "local:test")
            try await fixture.send(1, at: "2026-11-21T09:00:00Z", version: "5.2.0")
            let fields = try await fixture.store.decidedFields(Self.window, now: date("2026-11-21T10:00:00Z"))
            #expect(fields.summary.fields.first?.status == .regressed)
        }
    }

    @Test("actions on an unknown group fail with notFound", arguments: StoreBackend.allCases)
    func unknownGroup(backend: StoreBackend) async throws {
        try await backend.withFreshStore { store in
            for action in [GroupAction.mute(.occurrences(1)), .unmute, .resolveInNextVersion] {
                await #expect(throws: StoreError.self) {
                    try await store.apply(action, to: "0123456789abcdef", at: Date(), by: "local:test")
                }
            }
            let stored = try await store.storedGroup("0123456789abcdef")
            #expect(stored == nil)
        }
    }

    @Test(
        "versions of a group in a window, newest first, first and last seen to the minute for the last 7 days",
        arguments: StoreBackend.allCases)
    func versionBreakdown(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(1, at: "2026-11-14T10:10:00Z", version: "5.8.0")
            try await fixture.send(2, at: "2026-11-21T08:10:00Z", version: "5.9.0")
            try await fixture.send(3, at: "2026-11-21T09:20:00Z", version: "5.9.0")
            try await fixture.send(4, at: "2026-11-21T09:30:00Z", version: "5.10.0")
            let group = try await fixture.group(path: Self.path)
            let versions = try await fixture.store.versionBreakdown(
                group: group, since: date("2026-11-14T00:00:00Z"), until: Self.window.until)
            #expect(versions.map(\.version) == ["5.10.0", "5.9.0", "5.8.0"])
            #expect(versions.map(\.count) == [4, 5, 1])
            #expect(versions[1].firstSeen == date("2026-11-21T08:10:00Z"))
            #expect(versions[1].lastSeen == date("2026-11-21T09:20:00Z"))
            #expect(versions[1].exactToTheMinute)
            // More than 7 days before the window's end only the hour is known.
            #expect(versions[2].firstSeen == date("2026-11-14T10:00:00Z"))
            #expect(!versions[2].exactToTheMinute)
            let stored = try #require(try await fixture.store.storedGroup(group))
            #expect(stored.path == Self.path)
            #expect(stored.endpoint == "GET /v2/posts")
        }
    }

    @Test(
        "the digest leaves muted groups out of its new list but keeps them in its totals",
        arguments: StoreBackend.allCases)
    func digestWithoutMuted(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(3, at: "2026-11-21T09:00:00Z")
            try await fixture.send(2, at: "2026-11-21T09:00:00Z", path: ["other"])
            let muted = try await fixture.group(path: Self.path)
            let now = date("2026-11-21T12:00:00Z")
            try await fixture.store.apply(.mute(.period(86_400)), to: muted, at: now, by: "local:test")
            let period = DigestPeriod(since: date("2026-11-21T00:00:00Z"), until: date("2026-11-22T00:00:00Z"))
            let full = try await fixture.store.digest(for: period, now: now)
            let quiet = try await fixture.store.digestWithoutMuted(for: period, now: now)
            #expect(Set(full.new.map(\.group)).contains(muted))
            #expect(!quiet.new.map(\.group).contains(muted))
            #expect(quiet.new.count == full.new.count - 1)
            #expect(quiet.totals.new == full.totals.new - 1)
            #expect(quiet.totals.count == full.totals.count)
        }
    }

    @Test(
        "a dashboard page lists every group lightly and summarizes only the chosen ones, as fields() does",
        arguments: StoreBackend.allCases)
    func fieldsPage(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            // 60 groups with counts 1…60; the even ones also seen by version 6.0.0; decodes for the rate.
            for index in 1...60 {
                try await fixture.send(
                    index, path: ["field\(index)"], snippet: #"{"field\#(index)":null}"#,
                    decodes: index == 1 ? ["GET /v2/posts": 1000] : [:])
                if index.isMultiple(of: 2) { try await fixture.send(1, path: ["field\(index)"], version: "6.0.0") }
            }
            var window = Self.window
            window.limit = 100
            let all = try await fixture.store.fields(window)
            #expect(all.fields.count == 60)
            let ids = Dictionary(uniqueKeysWithValues: all.fields.map { ($0.path, $0.group) })
            let pick = try ["$.field3", "$.field60", "$.field10"].map { try #require(ids[$0], "\(ids.keys)") }
            let (index, page) = try await fixture.store.fieldsPage(window, version: nil) { _ in pick }
            #expect(index.map(\.group) == all.fields.map(\.group))
            #expect(index.map(\.count) == all.fields.map(\.count))
            #expect(index.map(\.rate) == all.fields.map(\.rate))
            #expect(index.allSatisfy { $0.status == .new })
            // The page keeps the chosen order and says exactly what the full summary says of those groups.
            #expect(page.fields.map(\.group) == pick)
            #expect(page.fields == pick.map { id in all.fields.first { $0.group == id }! })
            #expect(page.fields.first?.sample.snippet == #"{"field3":null}"#)

            let (versioned, none) = try await fixture.store.fieldsPage(window, version: "6.0.0") { _ in [] }
            #expect(versioned.count == 30)
            #expect(
                versioned.allSatisfy { entry in all.fields.first { $0.group == entry.group }!.versions["6.0.0"] != nil }
            )
            #expect(none.fields.isEmpty)
        }
    }
}

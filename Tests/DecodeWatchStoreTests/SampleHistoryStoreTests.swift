import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// Each group's last samples and its failures per OS version, on both stores.
@Suite("Sample history and OS breakdown in storage")
struct SampleHistoryStoreTests {
    @Test(
        "a group keeps its last 20 samples, newest first, each redacted, with version, OS, environment and time",
        arguments: StoreBackend.allCases)
    func lastSamples(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            for minute in 0..<25 {
                try await fixture.send(
                    at: String(format: "2026-11-21T09:%02d:00Z", minute), version: "5.\(minute).0",
                    snippet: #"{"n":\#(minute),"email":"ada@example.com"}"#,
                    environment: minute.isMultiple(of: 2) ? "production" : "testflight", os: "17.\(minute % 3)")
            }
            let group = try await fixture.group(path: "$.results[*].title")
            let samples = try await fixture.store.samples(group: group)
            #expect(samples.count == SampleHistory.size)
            #expect(samples.map(\.version) == (5..<25).reversed().map { "5.\($0).0" })
            #expect(samples.first?.seenAt == date("2026-11-21T09:24:00Z"))
            #expect(samples.first?.os == "17.0" && samples.first?.environment == "production")
            #expect(samples.allSatisfy { $0.snippet?.contains("ada@example.com") == false })
            #expect(samples.first?.snippet?.contains(#""n":24"#) == true)
        }
    }

    @Test(
        "failures per OS version add up over the UTC days a window touches, most first; none is counted as unknown",
        arguments: StoreBackend.allCases)
    func osBreakdown(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(5, at: "2026-11-20T23:59:00Z", os: "16.7")
            try await fixture.send(3, at: "2026-11-21T09:00:00Z", os: "17.4")
            try await fixture.send(4, at: "2026-11-21T10:00:00Z", os: "17.4")
            try await fixture.send(2, at: "2026-11-21T11:00:00Z", os: nil)
            let group = try await fixture.group(path: "$.results[*].title")
            let day = try await fixture.store.osBreakdown(
                group: group, since: date("2026-11-21T08:00:00Z"), until: date("2026-11-21T12:00:00Z"))
            #expect(day == [OSFailures(os: "17.4", count: 7), OSFailures(os: "unknown", count: 2)])
            let twoDays = try await fixture.store.osBreakdown(
                group: group, since: date("2026-11-20T12:00:00Z"), until: date("2026-11-22T00:00:00Z"))
            #expect(twoDays.map(\.os) == ["17.4", "16.7", "unknown"])
            #expect(
                try await fixture.store.osBreakdown(
                    group: group, since: date("2026-11-23T00:00:00Z"), until: date("2026-11-24T00:00:00Z")
                ).isEmpty)
        }
    }

    @Test("retention removes the samples and OS counts older than its horizon", arguments: StoreBackend.allCases)
    func retentionRemovesThem(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(at: "2026-11-01T09:00:00Z", os: "16.0")
            try await fixture.send(at: "2026-11-21T09:00:00Z", os: "17.4")
            let group = try await fixture.group(path: "$.results[*].title")
            let horizon = date("2026-11-10T00:00:00Z")
            _ = try await fixture.store.deleteExpired(before: horizon, minutesBefore: horizon, limit: 100)
            #expect(try await fixture.store.samples(group: group).map(\.os) == ["17.4"])
            let all = try await fixture.store.osBreakdown(
                group: group, since: date("2026-10-01T00:00:00Z"), until: date("2026-12-01T00:00:00Z"))
            #expect(all == [OSFailures(os: "17.4", count: 1)])
        }
    }
}

import DecodeWatchCore
import Foundation
import Testing

@Suite("RFC 3339 times and durations")
struct RFC3339Tests {
    @Test(
        "valid times parse to the right instant",
        arguments: [
            ("2026-11-21T10:00:00Z", 1_795_255_200.0),
            ("2026-11-21T10:00:00.5Z", 1_795_255_200.5),
            ("2026-11-21T09:59:58.123Z", 1_795_255_198.123),
            ("2026-11-21T11:00:00+01:00", 1_795_255_200.0),
            ("2026-11-21t05:30:00-04:30", 1_795_255_200.0),
            ("2024-02-29T00:00:00Z", 1_709_164_800.0),
            ("1970-01-01T00:00:00Z", 0.0),
        ])
    func parses(text: String, seconds: Double) throws {
        let date = try #require(RFC3339.date(from: text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0005)
    }

    @Test(
        "invalid times are refused",
        arguments: [
            "", "2026-11-21", "2026-11-21T10:00:00", "2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z",
            "2026-11-21T24:00:00Z", "2026-11-21T10:00:00.Z", "2026-11-21T10:00:00+0100", "2026-11-21T10:00:00Zjunk",
        ])
    func refuses(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test("formatting round-trips and shows milliseconds only when present")
    func formats() {
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 1_795_255_200)) == "2026-11-21T10:00:00Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 1_795_255_198.123)) == "2026-11-21T09:59:58.123Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }

    @Test(
        "durations count back from now",
        arguments: [("90m", 5400.0), ("24h", 86_400.0), ("7d", 604_800.0), ("2w", 1_209_600.0)])
    func durations(text: String, seconds: Double) throws {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        #expect(try TimeReference.parse(text, now: now, field: "since") == now.addingTimeInterval(-seconds))
    }

    @Test("bad durations name the filter", arguments: ["0h", "-1d", "h", "5y", "soon"])
    func badDurations(text: String) {
        #expect(throws: QueryError.self) { try TimeReference.parse(text, now: Date(), field: "since") }
    }
}

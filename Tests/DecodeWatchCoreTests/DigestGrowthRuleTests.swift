import Foundation
import Testing

@testable import DecodeWatchCore

@Suite struct DigestGrowthRuleTests {
    @Test(
        "growing needs ≥ 20 now, ≥ 10 more and ≥ 2× before; fading needs ≥ 20 before and ≤ half now",
        arguments: [
            // (current, previous, expected)
            (20, 0, DigestTrend.growing),  // the smallest count that can grow from nothing
            (19, 0, .steady),  // below the minimum count: tiny numbers never grow
            (20, 10, .growing),  // exactly 2× and exactly +10
            (21, 11, .steady),  // +10 but under 2×
            (29, 15, .steady),  // under 2× (30 needed)
            (30, 15, .growing),
            (25, 16, .steady),  // +9 only
            (1000, 499, .growing),
            (10, 20, .fading),  // exactly half of exactly 20
            (11, 21, .steady),  // 22 > 21: not yet half
            (0, 19, .steady),  // vanished, but from too little to call it fading
            (0, 20, .fading),
            (5, 1000, .fading),
            (0, 0, .steady),
            (40, 40, .steady),
        ])
    func trend(current: Int, previous: Int, expected: DigestTrend) {
        #expect(GrowthRule.standard.trend(current: current, previous: previous) == expected)
    }

    @Test("a custom rule moves the thresholds")
    func customRule() {
        let rule = GrowthRule(minimumCount: 5, minimumIncrease: 3, factor: 3, minimumPrevious: 6)
        #expect(rule.trend(current: 6, previous: 2) == .growing)
        #expect(rule.trend(current: 5, previous: 2) == .steady)
        #expect(rule.trend(current: 2, previous: 6) == .fading)
        #expect(rule.trend(current: 3, previous: 6) == .steady)
    }
}

@Suite struct DigestPeriodTests {
    let now = RFC3339.date(from: "2026-11-21T10:17:42Z")!

    @Test("the default period is the last whole UTC day")
    func defaultPeriod() throws {
        let period = try DigestPeriod.parse(since: nil, now: now)
        #expect(RFC3339.string(from: period.since) == "2026-11-20T00:00:00Z")
        #expect(RFC3339.string(from: period.until) == "2026-11-21T00:00:00Z")
        #expect(RFC3339.string(from: period.previous.since) == "2026-11-19T00:00:00Z")
        #expect(period.previous.until == period.since)
        #expect(period.length == 86_400)
    }

    @Test("an hourly cron computes one daily period all day long, so each day's digest is sent once")
    func hourlyCronOneDailyPeriod() throws {
        let midnight = RFC3339.date(from: "2026-11-21T00:00:00Z")!
        let periods = Set(
            (0..<24).map { hour in DigestPeriod.ending(at: midnight.addingTimeInterval(Double(hour) * 3600 + 300)) })
        #expect(periods.count == 1)
        #expect(RFC3339.string(from: periods.first!.until) == "2026-11-21T00:00:00Z")
        let nextDay = DigestPeriod.ending(at: midnight.addingTimeInterval(86_400 + 300))
        #expect(nextDay.since == periods.first!.until)
        #expect(try DigestPeriod.parse(period: "7d", now: now).until == periods.first!.until)
    }

    @Test("--since 24h covers the last 24 hours to the minute, not yesterday")
    func sinceIsTheLastSoLong() throws {
        let period = try DigestPeriod.parse(since: "24h", now: now)
        #expect(RFC3339.string(from: period.since) == "2026-11-20T10:17:00Z")
        #expect(RFC3339.string(from: period.until) == "2026-11-21T10:17:00Z")
        #expect(RFC3339.string(from: period.previous.since) == "2026-11-19T10:17:00Z")
    }

    @Test("aligned periods of hours end on the hour, and two runs inside one hour compute the same one")
    func hourPeriods() throws {
        let period = try DigestPeriod.parse(period: "6h", now: now)
        #expect(RFC3339.string(from: period.until) == "2026-11-21T10:00:00Z")
        #expect(period.length == 6 * 3600)
        let later = now.addingTimeInterval(40 * 60)
        #expect(try DigestPeriod.parse(period: "7d", now: now) == DigestPeriod.parse(period: "7d", now: later))
    }

    @Test("an RFC 3339 start runs to now on whole minutes; both options, bad or sub-hour values are refused")
    func parsing() throws {
        let period = try DigestPeriod.parse(since: "2026-11-21T07:30:20Z", now: now)
        #expect(RFC3339.string(from: period.since) == "2026-11-21T07:30:00Z")
        #expect(RFC3339.string(from: period.until) == "2026-11-21T10:17:00Z")
        #expect(throws: QueryError.self) { try DigestPeriod.parse(since: "30m", now: now) }
        #expect(throws: QueryError.self) { try DigestPeriod.parse(period: "30m", now: now) }
        #expect(throws: QueryError.self) { try DigestPeriod.parse(since: "yesterday", now: now) }
        #expect(throws: QueryError.self) { try DigestPeriod.parse(since: "2026-11-21T10:05:00Z", now: now) }
        #expect(throws: QueryError.self) { try DigestPeriod.parse(since: "24h", period: "24h", now: now) }
    }
}

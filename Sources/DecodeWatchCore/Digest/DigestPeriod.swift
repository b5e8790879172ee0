@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// The span of time a digest covers, on whole UTC minutes, and the span of the same length before it.
///
/// Two kinds of period. An aligned period (``ending(at:length:)``, `decodewatch digest --period`, the
/// scheduler of `serve`) ends on a boundary, so that every run between two boundaries (cron jitter, an
/// hourly cron, several replicas) computes the same period, which is what makes "one digest per period"
/// checkable: periods of whole days end at midnight UTC, so a daily digest run from an hourly cron is sent
/// once a day, other periods end on the hour. A trailing period (``trailing(_:before:)``, `--since`) is the
/// last so long before now, to the minute: `--since 24h` at 17:52 covers 17:52 yesterday to 17:52 today.
public struct DigestPeriod: Codable, Sendable, Hashable {
    /// Start of the period, inclusive, on a minute.
    @RFC3339Coded public var since: Date
    /// End of the period, exclusive, on a minute.
    @RFC3339Coded public var until: Date

    /// The default length: one day.
    public static let defaultLength: TimeInterval = 86_400
    /// The shortest period: an hour, the resolution of a digest's charts.
    public static let shortestLength: TimeInterval = 3600

    /// Creates a period from explicit bounds, each floored to its minute.
    public init(since: Date, until: Date) {
        self.since = Minute.start(of: Minute.index(of: since))
        self.until = Minute.start(of: Minute.index(of: until))
    }

    /// The aligned period of `length` that ends at the last boundary before `now`: midnight UTC for whole
    /// days, else the start of the hour.
    /// - Parameters:
    ///   - now: the time of the run.
    ///   - length: the period length; rounded up to whole hours, at least one hour.
    /// - Returns: `[end − length, end)`.
    public static func ending(at now: Date, length: TimeInterval = defaultLength) -> DigestPeriod {
        let hours = max(1, Int64((length / 3600).rounded(.up)))
        var end = Hour.index(of: now)
        if hours % 24 == 0 { end -= ((end % 24) + 24) % 24 }
        return DigestPeriod(since: Hour.start(of: end - hours), until: Hour.start(of: end))
    }

    /// The trailing period of `length` that ends at the start of the current minute.
    public static func trailing(_ length: TimeInterval, before now: Date) -> DigestPeriod {
        let end = Minute.start(of: Minute.index(of: now))
        return DigestPeriod(since: end.addingTimeInterval(-length), until: end)
    }

    /// Parses the `--since` and `--period` of `decodewatch digest`.
    /// - Parameters:
    ///   - since: a duration (`24h`, `7d`) back from now or an RFC 3339 start: a trailing period ending now.
    ///   - period: a duration: the last aligned period of that length (``ending(at:length:)``).
    ///   - now: the time of the run.
    /// - Returns: the period; with neither, the last whole UTC day.
    /// - Throws: ``QueryError`` when both are given, one cannot be read, or the period is shorter than an hour.
    public static func parse(since: String? = nil, period: String? = nil, now: Date) throws(QueryError) -> DigestPeriod
    {
        switch (since, period) {
        case (_?, _?):
            throw QueryError(
                "Give --since (the last so long, to the minute) or --period (the last whole period), not both.")
        case (nil, let period?):
            guard let seconds = TimeReference.duration(period), seconds >= shortestLength else {
                throw QueryError("--period '\(period)' must be a duration of at least an hour, such as 24h or 7d.")
            }
            return ending(at: now, length: seconds)
        case (let since?, nil):
            let result: DigestPeriod
            if let seconds = TimeReference.duration(since) {
                result = trailing(seconds, before: now)
            } else {
                result = DigestPeriod(
                    since: try TimeReference.parse(since, now: now, field: "--since"),
                    until: Minute.start(of: Minute.index(of: now)))
            }
            guard result.length >= shortestLength else {
                throw QueryError(
                    "--since '\(since)' leaves less than an hour before now; a digest covers at least an hour.")
            }
            return result
        case (nil, nil):
            return ending(at: now)
        }
    }

    /// The period's length in seconds.
    public var length: TimeInterval { until.timeIntervalSince(since) }

    /// The period of the same length just before this one, the baseline of the comparison.
    public var previous: DigestPeriod {
        DigestPeriod(since: since.addingTimeInterval(-length), until: since)
    }
}

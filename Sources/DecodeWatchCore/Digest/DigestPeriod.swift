import DecodeWatchWire
import Foundation

/// The span of time a digest covers, on whole UTC hours, and the span of the same length before it.
///
/// Periods end on a boundary so that every run between two boundaries (cron jitter, an hourly cron,
/// several replicas) computes the same period, which is what makes "one digest per period" checkable.
/// Periods of whole days end at midnight UTC: a daily digest run from an hourly cron is sent once a
/// day, not 24 times for 24 overlapping days. Other periods end on the hour.
public struct DigestPeriod: Codable, Sendable, Hashable {
    /// Start of the period, inclusive, on an hour.
    @RFC3339Coded public var since: Date
    /// End of the period, exclusive, on an hour.
    @RFC3339Coded public var until: Date

    /// The default length: one day.
    public static let defaultLength: TimeInterval = 86_400

    /// Creates a period from explicit bounds, widened outwards to whole hours.
    /// - Parameters:
    ///   - since: start; floored to its hour.
    ///   - until: end; raised to the next hour unless already on one.
    public init(since: Date, until: Date) {
        self.since = Hour.start(of: Hour.index(of: since))
        self.until = Hour.start(of: Hour.ceilingIndex(of: until))
    }

    /// The period of `length` that ends at the last boundary before `now`: midnight UTC for whole
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

    /// Parses the `--since` of `decodewatch digest`.
    /// - Parameters:
    ///   - since: a duration (`24h`, `7d`) or an RFC 3339 time; `nil` means the last whole UTC day.
    ///   - now: the time of the run; a duration's period ends at the last boundary (``ending(at:length:)``),
    ///     an RFC 3339 start's at the start of the hour.
    /// - Throws: ``QueryError`` when `since` cannot be read or leaves an empty period.
    public static func parse(since: String?, now: Date) throws(QueryError) -> DigestPeriod {
        guard let since else { return ending(at: now) }
        if let seconds = TimeReference.duration(since) {
            guard seconds >= 3600 else {
                throw QueryError("since '\(since)' is shorter than one hour; digests cover whole hours (e.g. 24h, 7d).")
            }
            return ending(at: now, length: seconds)
        }
        let start = try TimeReference.parse(since, now: now, field: "since")
        let end = Hour.start(of: Hour.index(of: now))
        guard Hour.start(of: Hour.index(of: start)) < end else {
            throw QueryError("since (\(RFC3339.string(from: start))) must be at least one whole hour before now.")
        }
        return DigestPeriod(since: start, until: end)
    }

    /// The period's length in seconds.
    public var length: TimeInterval { until.timeIntervalSince(since) }

    /// How many hours the period has.
    public var hours: Int { Int(Hour.index(of: until) - Hour.index(of: since)) }

    /// The period of the same length just before this one, the baseline of the comparison.
    public var previous: DigestPeriod {
        DigestPeriod(since: since.addingTimeInterval(-length), until: since)
    }
}

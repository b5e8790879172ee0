@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// A point in time written as RFC 3339 or as a duration back from now (`30m`, `24h`, `7d`, `2w`).
public enum TimeReference {
    /// Parses a time reference.
    /// - Parameters:
    ///   - text: RFC 3339 time, or a positive whole number followed by `s`, `m`, `h`, `d` or `w`.
    ///   - now: the time durations count back from.
    ///   - field: the filter's name, for the error message.
    /// - Throws: ``QueryError`` when the text is neither.
    public static func parse(_ text: String, now: Date, field: String) throws(QueryError) -> Date {
        if let date = RFC3339.date(from: text) { return date }
        if let seconds = duration(text) { return now.addingTimeInterval(-seconds) }
        throw QueryError(
            "\(field) '\(text)' is neither an RFC 3339 time (2026-11-21T10:00:00Z) nor a duration such as 24h or 7d (at most 100 years)."
        )
    }

    /// The longest duration accepted: 100 years, far beyond any data kept, and small enough that every
    /// time computed from it stays representable.
    public static let maxDuration: TimeInterval = 100 * 365.25 * 86_400

    /// Parses a duration such as `24h` into seconds.
    /// - Returns: the seconds, or `nil` when the text is not a positive duration of at most 100 years.
    public static func duration(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let value = Int(text.dropLast()), value > 0 else { return nil }
        let seconds: TimeInterval
        switch unit {
        case "s": seconds = TimeInterval(value)
        case "m": seconds = TimeInterval(value) * 60
        case "h": seconds = TimeInterval(value) * 3600
        case "d": seconds = TimeInterval(value) * 86_400
        case "w": seconds = TimeInterval(value) * 604_800
        default: return nil
        }
        return seconds <= maxDuration ? seconds : nil
    }
}

import Foundation

/// Minute indexes: whole minutes since 1970-01-01T00:00:00Z, the bucket that makes recent windows exact
/// to the minute (docs/api.md#windows).
public enum Minute {
    /// How long per-minute counts are kept; a window edge older than this counts whole hours there.
    public static let kept: TimeInterval = 7 * 86_400

    /// The index of the minute containing a date; never negative, as ``Hour``'s.
    public static func index(of date: Date) -> Int64 {
        max(0, Int64((date.timeIntervalSince1970 / 60).rounded(.down)))
    }

    /// The index of the first minute that starts at or after a date; never negative.
    public static func ceilingIndex(of date: Date) -> Int64 {
        max(0, Int64((date.timeIntervalSince1970 / 60).rounded(.up)))
    }

    /// The start of a minute.
    public static func start(of index: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(index) * 60)
    }

    /// The index of the hour (``Hour``) a minute belongs to.
    public static func hour(of minute: Int64) -> Int64 {
        minute >= 0 ? minute / 60 : (minute - 59) / 60
    }
}

import Foundation

/// Hour indexes: whole hours since 1970-01-01T00:00:00Z, the bucket of the hourly rollups.
///
/// No index is negative: a date before 1970 has the index of 1970-01-01T00:00Z. Nothing is stored before it
/// (validation counts reports dated earlier at their receive time), so a window reaching further back loses
/// nothing, and day arithmetic on indexes (`hour / 24`, `hour % 24`) never meets a negative one.
public enum Hour {
    /// The index of the hour containing a date.
    public static func index(of date: Date) -> Int64 {
        max(0, Int64((date.timeIntervalSince1970 / 3600).rounded(.down)))
    }

    /// The index of the first hour that starts at or after a date.
    public static func ceilingIndex(of date: Date) -> Int64 {
        max(0, Int64((date.timeIntervalSince1970 / 3600).rounded(.up)))
    }

    /// The start of an hour.
    public static func start(of index: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(index) * 3600)
    }
}

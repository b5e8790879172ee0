import Foundation

/// Indexes of a fixed unit of time (``Hour``, ``Minute``): whole units since 1970-01-01T00:00:00Z, the buckets of
/// the rollups.
///
/// No index is negative: a date before 1970 has the index of 1970-01-01T00:00Z. Nothing is stored before it
/// (validation counts reports dated earlier at their receive time), so a window reaching further back loses
/// nothing, and day arithmetic on hour indexes (`hour / 24`, `hour % 24`) never meets a negative one.
public protocol TimeIndex {
    /// The unit's length in seconds.
    static var seconds: TimeInterval { get }
}

extension TimeIndex {
    /// The index of the unit containing a date.
    @inlinable
    public static func index(of date: Date) -> Int64 {
        max(0, Int64((date.timeIntervalSince1970 / seconds).rounded(.down)))
    }

    /// The index of the first unit that starts at or after a date.
    @inlinable
    public static func ceilingIndex(of date: Date) -> Int64 {
        max(0, Int64((date.timeIntervalSince1970 / seconds).rounded(.up)))
    }

    /// The start of a unit.
    @inlinable
    public static func start(of index: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(index) * seconds)
    }
}

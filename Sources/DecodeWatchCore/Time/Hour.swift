import Foundation

/// Hour indexes (``TimeIndex``): whole hours since 1970-01-01T00:00:00Z, the bucket of the hourly rollups.
public enum Hour: TimeIndex {
    /// An hour.
    public static let seconds: TimeInterval = 3600
}

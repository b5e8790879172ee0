import Foundation

/// Minute indexes (``TimeIndex``): whole minutes since 1970-01-01T00:00:00Z, the bucket that makes recent windows
/// exact to the minute (docs/api.md#windows).
public enum Minute: TimeIndex {
    /// A minute.
    public static let seconds: TimeInterval = 60

    /// How long per-minute counts are kept; a window edge older than this counts whole hours there.
    public static let kept: TimeInterval = 7 * 86_400

    /// The index of the hour (``Hour``) a minute belongs to.
    public static func hour(of minute: Int64) -> Int64 {
        minute >= 0 ? minute / 60 : (minute - 59) / 60
    }
}

import Foundation

/// When a muted group's mute ends (`fields[].mute`, docs/api.md#status): at a time, or after a number of further
/// failures. Both keys are written, `null` for the one that does not apply.
public struct FieldMute: Codable, Sendable, Hashable {
    /// When the mute ends, for a mute by time.
    @RFC3339CodedOrNull public var until: Date?
    /// Failures left before the mute ends, for a mute by failures.
    @NullEncoded public var failuresLeft: Int?

    /// Creates a mute's end.
    public init(until: Date?, failuresLeft: Int?) {
        self.until = until
        self.failuresLeft = failuresLeft
    }

    enum CodingKeys: String, CodingKey {
        case until
        case failuresLeft = "failures_left"
    }
}

@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Encodes a date as an RFC 3339 string, so that the JSON documents read the same whatever encoder writes them.
@propertyWrapper
public struct RFC3339Coded: Codable, Sendable, Hashable {
    /// The date.
    public var wrappedValue: Date

    /// Wraps a date.
    public init(wrappedValue: Date) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = RFC3339.date(from: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an RFC 3339 time")
        }
        wrappedValue = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(RFC3339.string(from: wrappedValue))
    }
}

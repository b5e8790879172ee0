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

/// Encodes an optional date as an RFC 3339 string, or `null`; reads `null` and a missing key alike as `nil`.
@propertyWrapper
public struct RFC3339CodedOrNull: Codable, Sendable, Hashable {
    /// The date, or `nil`.
    public var wrappedValue: Date?

    /// Wraps a date.
    public init(wrappedValue: Date?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try RFC3339Coded(from: decoder).wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        guard let wrappedValue else {
            var container = encoder.singleValueContainer()
            return try container.encodeNil()
        }
        try RFC3339Coded(wrappedValue: wrappedValue).encode(to: encoder)
    }
}

extension KeyedDecodingContainer {
    /// Decodes an ``RFC3339CodedOrNull`` property whose key is missing as `nil`.
    public func decode(_ type: RFC3339CodedOrNull.Type, forKey key: Key) throws -> RFC3339CodedOrNull {
        try decodeIfPresent(type, forKey: key) ?? RFC3339CodedOrNull(wrappedValue: nil)
    }
}

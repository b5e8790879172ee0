import Foundation

/// Writes a missing value as `null` instead of leaving its key out, so that a client finds every key of the
/// document it reads; reads `null` and a missing key alike as `nil`.
@propertyWrapper
public struct NullEncoded<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// The value, or `nil`.
    public var wrappedValue: Value?

    /// Wraps a value.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// Decodes a ``NullEncoded`` property whose key is missing as `nil`, as synthesized decoding reads a missing
    /// optional: synthesized `Decodable` calls this overload for such properties.
    /// - Parameters:
    ///   - type: the wrapper's type.
    ///   - key: the property's key.
    /// - Returns: the value, or `nil` when the key is missing or `null`.
    /// - Throws: `DecodingError` when the value is there and malformed.
    public func decode<Value>(_ type: NullEncoded<Value>.Type, forKey key: Key) throws -> NullEncoded<Value> {
        try decodeIfPresent(type, forKey: key) ?? NullEncoded(wrappedValue: nil)
    }
}

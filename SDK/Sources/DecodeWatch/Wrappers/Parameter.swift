/// A field of a PATCH body that can be left out, cleared with `null`, or set.
///
/// `Optional` cannot tell "leave it alone" from "clear it"; an update API needs both. With the
/// keyed-container overloads below, synthesized `Codable` writes nothing for ``absent``, `null` for
/// ``null`` and the value for ``value(_:)``, and decodes the same three states back.
///
/// ```swift
/// struct IssuePatch: Encodable {
///     var title: Parameter<String> = .absent
///     var milestone: Parameter<Int> = .absent
/// }
/// // {"milestone":null}
/// try JSONEncoder().encode(IssuePatch(milestone: .null))
/// ```
public enum Parameter<Value> {
    /// Leave the field out: the server keeps its value.
    case absent
    /// Send `null`: the server clears the field.
    case null
    /// Send a value.
    case value(Value)

    /// The value, if one is set.
    public var wrapped: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// Creates a parameter from an optional: `nil` becomes ``null``, a value becomes ``value(_:)``.
    /// - Parameter optional: the new value, or `nil` to clear the field.
    public init(_ optional: Value?) {
        self = optional.map(Parameter.value) ?? .null
    }
}

extension Parameter: Encodable where Value: Encodable {
    /// Encodes the parameter as a single value: `null` for ``absent`` and ``null``.
    ///
    /// Only a keyed container can leave a field out; this is used in arrays and at the root.
    /// - Parameter encoder: the encoder.
    /// - Throws: what encoding the value throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if case .value(let value) = self { try container.encode(value) } else { try container.encodeNil() }
    }
}

extension Parameter: Decodable where Value: Decodable {
    /// Decodes `null` as ``null`` and anything else as ``value(_:)``.
    /// - Parameter decoder: the decoder positioned at the value.
    /// - Throws: what decoding the value throws.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .null : .value(try container.decode(Value.self))
    }
}

extension Parameter: Sendable where Value: Sendable {}
extension Parameter: Equatable where Value: Equatable {}
extension Parameter: Hashable where Value: Hashable {}

extension KeyedEncodingContainer {
    /// Encodes a ``Parameter``: nothing for ``Parameter/absent``, `null` for ``Parameter/null``, else the value.
    ///
    /// Synthesized `Encodable` calls this overload for `Parameter` properties.
    /// - Parameters:
    ///   - parameter: the parameter.
    ///   - key: the field's key.
    /// - Throws: what encoding the value throws.
    public mutating func encode<Value: Encodable>(_ parameter: Parameter<Value>, forKey key: Key) throws {
        switch parameter {
        case .absent: break
        case .null: try encodeNil(forKey: key)
        case .value(let value): try encode(value, forKey: key)
        }
    }

    /// Encodes a ``Parameter`` in a hand-written `encode(to:)`; the same as ``encode(_:forKey:)``.
    /// - Parameters:
    ///   - parameter: the parameter.
    ///   - key: the field's key.
    /// - Throws: what encoding the value throws.
    public mutating func encodeParameter<Value: Encodable>(_ parameter: Parameter<Value>, forKey key: Key) throws {
        try encode(parameter, forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// Decodes a ``Parameter``: ``Parameter/absent`` when the key is missing, ``Parameter/null`` for `null`.
    /// - Parameters:
    ///   - type: the `Parameter` type.
    ///   - key: the field's key.
    /// - Returns: the parameter.
    /// - Throws: what decoding the value throws.
    public func decode<Value: Decodable>(_ type: Parameter<Value>.Type, forKey key: Key) throws -> Parameter<Value> {
        guard contains(key) else { return .absent }
        if try decodeNil(forKey: key) { return .null }
        return .value(try decode(Value.self, forKey: key))
    }
}

/// An enum that decodes values it does not know as ``unknown`` and reports them.
///
/// APIs add enum cases (a new `state`, a new `author_association`) long before every app version
/// knows them. Conforming types decode a new raw value as `.unknown` and report it as
/// `unknownValue`; a missing key, a `null`, a value of the wrong JSON type or an object also become
/// `.unknown`, but are reported as what they are (`keyNotFound`, `valueNotFound`, `typeMismatch`).
///
/// ```swift
/// enum IssueState: String, SafeEnum { case open, closed, unknown }
/// ```
///
/// Declare the property optional (`let state: IssueState?`) when the key may be absent or `null`
/// by design: then absent and `null` decode as `nil` and are not reported.
public protocol SafeEnum: RawRepresentable, Decodable where RawValue: Decodable {
    /// The case for every value the app does not know.
    static var unknown: Self { get }
}

extension SafeEnum {
    /// Decodes a known case, or ``unknown`` with a report.
    /// - Parameter decoder: the decoder positioned at the value.
    public init(from decoder: any Decoder) throws {
        self = Self.decodeSafely(from: decoder)
    }

    fileprivate static func decodeSafely(from decoder: any Decoder) -> Self {
        let raw: RawValue
        do {
            raw = try decoder.singleValueContainer().decode(RawValue.self)
        } catch {
            Capture.caught(error, in: decoder, wrapping: RawValue.self)
            return .unknown
        }
        if let known = Self(rawValue: raw) { return known }
        Capture.unknownValue(raw, in: decoder, wrapping: Self.self)
        return .unknown
    }
}

// The standard library gives `String` and `Int` raw-value enums their own `init(from:)`; these
// more specific extensions win over it for safe enums.
extension SafeEnum where RawValue == String {
    /// Decodes a known case, or ``SafeEnum/unknown`` with a report.
    /// - Parameter decoder: the decoder positioned at the value.
    public init(from decoder: any Decoder) throws {
        self = Self.decodeSafely(from: decoder)
    }
}

extension SafeEnum where RawValue == Int {
    /// Decodes a known case, or ``SafeEnum/unknown`` with a report.
    /// - Parameter decoder: the decoder positioned at the value.
    public init(from decoder: any Decoder) throws {
        self = Self.decodeSafely(from: decoder)
    }
}

extension KeyedDecodingContainer {
    /// Decodes a ``SafeEnum`` property, reporting an absent key or a `null` and using ``SafeEnum/unknown``.
    ///
    /// Synthesized `Decodable` calls this overload for non-optional safe-enum properties.
    /// - Parameters:
    ///   - type: the enum type.
    ///   - key: the property's key.
    /// - Returns: the case, or `.unknown`.
    /// - Throws: never in practice; declared to match the overloaded method.
    public func decode<Value: SafeEnum>(_ type: Value.Type, forKey key: Key) throws -> Value {
        if let value = try decodeIfPresent(type, forKey: key) { return value }
        // Expected is the raw type, as Swift itself reports for a plain enum.
        Capture.missing(key, in: self, isNull: contains(key), wrapping: Value.RawValue.self)
        return .unknown
    }
}

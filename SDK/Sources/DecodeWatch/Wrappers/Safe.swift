/// A value that decodes to `nil` instead of failing its parent, and reports why.
///
/// One bad element should not cost a user the whole screen: `[Safe<Post>]` keeps every post that
/// decodes, and `@Safe var title: String?` survives a missing or mistyped title. Every failure is
/// reported to the payload's ``DecodeContext`` with its full path from the payload root.
///
/// ```swift
/// struct Page: Decodable {
///     let results: [Safe<Post>]       // good posts kept, bad ones reported
///     @Safe var next: URL?            // nil when absent, null or malformed
/// }
/// ```
///
/// An absent key or a `null` for a non-optional wrapped type is reported too (`keyNotFound`,
/// `valueNotFound`); when the wrapped type is itself optional, absent and `null` are normal.
@propertyWrapper
public struct Safe<Wrapped: Decodable>: Decodable {
    /// The decoded value, or `nil` when it failed.
    public var wrappedValue: Wrapped?

    /// The decoded value, or `nil` when it failed.
    public var value: Wrapped? { wrappedValue }

    /// Wraps a value, e.g. for tests or defaults.
    /// - Parameter wrappedValue: the value, or `nil`.
    public init(wrappedValue: Wrapped?) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes the wrapped value, catching and reporting any failure.
    ///
    /// Never throws: a failure becomes `nil`.
    /// - Parameter decoder: the decoder positioned at the value.
    public init(from decoder: any Decoder) throws {
        do {
            // Through a container, so the decoder's date, data and key strategies apply to the wrapped value.
            wrappedValue = try decoder.singleValueContainer().decode(Wrapped.self)
        } catch {
            Capture.caught(error, in: decoder, wrapping: Wrapped.self)
            wrappedValue = nil
        }
    }
}

extension Safe: Encodable where Wrapped: Encodable {
    /// Encodes the value, or `null` when it failed to decode.
    /// - Parameter encoder: the encoder.
    /// - Throws: what encoding the wrapped value throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension Safe: Sendable where Wrapped: Sendable {}
extension Safe: Equatable where Wrapped: Equatable {}
extension Safe: Hashable where Wrapped: Hashable {}

extension KeyedDecodingContainer {
    /// Decodes a ``Safe`` property, reporting an absent key or a `null` instead of throwing.
    ///
    /// Synthesized `Decodable` calls this overload for `Safe` properties; without it an absent key
    /// would throw before `Safe` could catch anything.
    /// - Parameters:
    ///   - type: the `Safe` type.
    ///   - key: the property's key.
    /// - Returns: the value, or an empty `Safe` when it is absent, `null` or malformed.
    /// - Throws: never in practice; declared to match the overloaded method.
    public func decode<Wrapped>(_ type: Safe<Wrapped>.Type, forKey key: Key) throws -> Safe<Wrapped> {
        if let safe = try decodeIfPresent(type, forKey: key) { return safe }
        if let none = OptionalNil.of(Wrapped.self) { return Safe(wrappedValue: none) }
        Capture.missing(key, in: self, isNull: contains(key), wrapping: Wrapped.self)
        return Safe(wrappedValue: nil)
    }
}

/// Makes `nil` of a wrapped type that is itself `Optional`, for which absent and `null` are not failures.
enum OptionalNil {
    /// `.some(nil)` when `T` is an `Optional`, else `nil`.
    static func of<T>(_ type: T.Type) -> T? {
        (type as? any ExpressibleByNilLiteral.Type).flatMap { $0.init(nilLiteral: ()) as? T }
    }
}

/// A value that may have failed to decode, keeping the error next to it.
///
/// Like ``Safe`` it never fails its parent and it reports the failure, but it also keeps the
/// error, for screens that show "could not load the author" rather than hiding the author.
/// Encoding writes the value (or `null`).
///
/// ```swift
/// struct Issue: Decodable { let author: Maybe<User> }
/// if let error = issue.author.error { log(error) }
/// ```
public struct Maybe<Wrapped: Decodable>: Decodable {
    /// The decoded value, or `nil` when decoding failed.
    public let value: Wrapped?
    /// Why decoding failed, or `nil` when it succeeded.
    public let error: (any Error)?

    /// Wraps a value that decoded.
    /// - Parameter value: the value.
    public init(_ value: Wrapped) {
        self.value = value
        self.error = nil
    }

    /// Wraps a failure.
    /// - Parameter error: why decoding failed.
    public init(error: any Error) {
        self.value = nil
        self.error = error
    }

    /// Decodes the wrapped value, catching, keeping and reporting any failure.
    ///
    /// Never throws.
    /// - Parameter decoder: the decoder positioned at the value.
    public init(from decoder: any Decoder) throws {
        do {
            // Through a container, so the decoder's date, data and key strategies apply to the wrapped value.
            self.init(try decoder.singleValueContainer().decode(Wrapped.self))
        } catch {
            Capture.caught(error, in: decoder, wrapping: Wrapped.self)
            self.init(error: error)
        }
    }

    /// The value, or the error it failed with.
    /// - Returns: the decoded value.
    /// - Throws: the decoding error.
    public func get() throws -> Wrapped {
        if let value { return value }
        throw error ?? DecodingError.valueNotFound(Wrapped.self, .init(codingPath: [], debugDescription: "no value"))
    }
}

extension Maybe: Encodable where Wrapped: Encodable {
    /// Encodes the value, or `null` when it failed to decode.
    /// - Parameter encoder: the encoder.
    /// - Throws: what encoding the value throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

extension Maybe: Sendable where Wrapped: Sendable {}

extension KeyedDecodingContainer {
    /// Decodes a ``Maybe`` property, keeping an absent key or a `null` as the error instead of throwing.
    /// - Parameters:
    ///   - type: the `Maybe` type.
    ///   - key: the property's key.
    /// - Returns: the value, or the failure.
    /// - Throws: never in practice; declared to match the overloaded method.
    public func decode<Wrapped>(_ type: Maybe<Wrapped>.Type, forKey key: Key) throws -> Maybe<Wrapped> {
        if let maybe = try decodeIfPresent(type, forKey: key) { return maybe }
        if let none = OptionalNil.of(Wrapped.self) { return Maybe(none) }
        let isNull = contains(key)
        Capture.missing(key, in: self, isNull: isNull, wrapping: Wrapped.self)
        let context = DecodingError.Context(
            codingPath: codingPath + [key],
            debugDescription: isNull ? "Found null instead of \(Wrapped.self)" : "No value associated with key \(key)")
        return Maybe(
            error: isNull
                ? DecodingError.valueNotFound(Wrapped.self, context)
                : DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: context.debugDescription)))
    }
}

/// An array that keeps the elements that decode and reports the ones that do not.
///
/// The same as `[Safe<Element>]` with the `nil`s removed, for call sites that want `[Post]`:
/// `@SafeArray var posts: [Post]`, or `container.decodeSafeArray(Post.self, forKey: .posts)` in a
/// hand-written initializer. An absent key, a `null` or a value that is not an array is reported
/// and decodes as an empty array.
@propertyWrapper
public struct SafeArray<Element: Decodable>: Decodable {
    /// The elements that decoded, in payload order.
    public var wrappedValue: [Element]

    /// Wraps an array, e.g. for tests or defaults.
    /// - Parameter wrappedValue: the elements.
    public init(wrappedValue: [Element]) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes every element it can, reporting each one that fails.
    ///
    /// Never throws: a value that is not an array is reported and becomes `[]`.
    /// - Parameter decoder: the decoder positioned at the array.
    public init(from decoder: any Decoder) throws {
        var elements: [Element] = []
        do {
            var container = try decoder.unkeyedContainer()
            if let count = container.count { elements.reserveCapacity(count) }
            while !container.isAtEnd {
                // `Safe` never throws, so the container always moves on to the next element.
                if let element = try container.decode(Safe<Element>.self).wrappedValue {
                    elements.append(element)
                }
            }
        } catch {
            Capture.caught(error, in: decoder, wrapping: [Element].self)
        }
        wrappedValue = elements
    }
}

extension SafeArray: Encodable where Element: Encodable {
    /// Encodes the elements as a JSON array.
    /// - Parameter encoder: the encoder.
    /// - Throws: what encoding an element throws.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

extension SafeArray: Sendable where Element: Sendable {}
extension SafeArray: Equatable where Element: Equatable {}
extension SafeArray: Hashable where Element: Hashable {}

extension KeyedDecodingContainer {
    /// Decodes a ``SafeArray`` property, reporting an absent key or a `null` instead of throwing.
    /// - Parameters:
    ///   - type: the `SafeArray` type.
    ///   - key: the property's key.
    /// - Returns: the elements that decoded; empty when the key is absent or `null`.
    /// - Throws: never in practice; declared to match the overloaded method.
    public func decode<Element>(_ type: SafeArray<Element>.Type, forKey key: Key) throws -> SafeArray<Element> {
        if let array = try decodeIfPresent(type, forKey: key) { return array }
        Capture.missing(key, in: self, isNull: contains(key), wrapping: [Element].self)
        return SafeArray(wrappedValue: [])
    }

    /// Decodes an array, keeping the elements that decode and reporting the others.
    ///
    /// For hand-written initializers: `posts = try container.decodeSafeArray(Post.self, forKey: .posts)`.
    /// - Parameters:
    ///   - type: the element type.
    ///   - key: the array's key.
    /// - Returns: the elements that decoded; empty when the key is absent, `null` or not an array.
    /// - Throws: never in practice.
    public func decodeSafeArray<Element: Decodable>(_ type: Element.Type, forKey key: Key) throws -> [Element] {
        try decode(SafeArray<Element>.self, forKey: key).wrappedValue
    }

    /// Decodes an optional array leniently: `nil` when the key is absent or `null`, otherwise the
    /// elements that decode.
    /// - Parameters:
    ///   - type: the element type.
    ///   - key: the array's key.
    /// - Returns: `nil`, or the elements that decoded.
    /// - Throws: never in practice.
    public func decodeSafeArrayIfPresent<Element: Decodable>(_ type: Element.Type, forKey key: Key) throws -> [Element]?
    {
        try decodeIfPresent(SafeArray<Element>.self, forKey: key)?.wrappedValue
    }
}

/// A string identifier typed by the entity it names, so a `Id<User>` cannot be passed for a `Id<Post>`.
///
/// `Entity` is a phantom: it is never stored, it only keeps ids of different things apart at
/// compile time. Decoding rejects an empty string with `dataCorrupted`, because an empty id is
/// never a valid reference and would otherwise surface much later as a failed lookup.
public struct Id<Entity>: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The identifier text.
    public let rawValue: String

    /// Creates an id, or `nil` for an empty string.
    /// - Parameter rawValue: the identifier text.
    public init?(rawValue: String) {
        guard !rawValue.isEmpty else { return nil }
        self.rawValue = rawValue
    }

    /// Creates an id from a literal, for tests and constants.
    /// - Parameter value: a non-empty identifier.
    public init(stringLiteral value: String) {
        precondition(!value.isEmpty, "an Id must not be empty")
        self.rawValue = value
    }

    /// Decodes an id from a JSON string.
    /// - Parameter decoder: the decoder positioned at the value.
    /// - Throws: `DecodingError.dataCorrupted` for an empty string; the string's own errors otherwise.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard !text.isEmpty else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "An Id<\(TypeName.of(Entity.self))> must not be an empty string")
        }
        self.rawValue = text
    }

    /// Encodes the id as a JSON string.
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The identifier text.
    public var description: String { rawValue }
}

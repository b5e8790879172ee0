/// Two types decoded from the same value, for payloads that merge two models in one object.
///
/// `Both<Post, Metadata>` reads a post and its metadata from one JSON object, so each model stays
/// small and reusable. Decode-only: encoding both halves into one object would need a merge rule
/// that is rarely the one an API wants. Fails when either half fails, like a stored property would.
public struct Both<First: Decodable, Second: Decodable>: Decodable {
    /// The first half.
    public let first: First
    /// The second half.
    public let second: Second

    /// Creates a pair.
    /// - Parameters:
    ///   - first: the first half.
    ///   - second: the second half.
    public init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    /// Decodes both halves from the same value.
    /// - Parameter decoder: the decoder positioned at the value.
    /// - Throws: the first half's error, else the second's.
    public init(from decoder: any Decoder) throws {
        // Through a container, so the decoder's date, data and key strategies apply.
        let container = try decoder.singleValueContainer()
        first = try container.decode(First.self)
        second = try container.decode(Second.self)
    }
}

extension Both: Sendable where First: Sendable, Second: Sendable {}
extension Both: Equatable where First: Equatable, Second: Equatable {}
extension Both: Hashable where First: Hashable, Second: Hashable {}

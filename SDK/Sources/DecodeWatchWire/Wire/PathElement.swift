/// One step of a coding path: an object key or an array index (docs/wire-format.md#coding-paths, `reports[].path`).
///
/// On the wire a key is a JSON string and an index a non-negative JSON integer.
public enum PathElement: Hashable, Sendable, Codable {
    /// An object key.
    case key(String)
    /// An array index, zero-based.
    case index(Int)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let index = try? container.decode(Int.self) {
            guard index >= 0 else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "an array index must not be negative, got \(index)")
            }
            self = .index(index)
        } else if let key = try? container.decode(String.self) {
            self = .key(key)
        } else {
            throw DecodingError.typeMismatch(
                PathElement.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected an object key (string) or an array index (non-negative integer)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .key(let key): try container.encode(key)
        case .index(let index): try container.encode(index)
        }
    }
}

import Foundation

/// Any JSON value: what the SDK re-reads from a payload after a failure, for a snippet, and what the collector reads
/// from a snippet, for a suggested fix.
///
/// Decoding tries the JSON types one after another; that is slow compared with a typed decode, but
/// it runs only on the failure path, and only for the first occurrence of a failure (identical ones
/// are folded before a snippet is made).
@_spi(WireInternals) public indirect enum JSONValue: Decodable, Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    @_spi(WireInternals) public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

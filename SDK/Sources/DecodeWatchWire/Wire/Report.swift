import Foundation

/// One decoding failure, as the SDK sends it and as the collector accepts it (docs/wire-format.md#reports,
/// `reports[]`).
public struct Report: Codable, Sendable, Hashable {
    /// When the failure happened on the device.
    public var occurredAt: Date
    /// `"METHOD /path"`, optionally with a query string or as an absolute URL.
    public var endpoint: String
    /// Name of the Swift type being decoded, e.g. `Post`.
    public var type: String?
    /// The coding path from the payload root to the failing value.
    public var path: [PathElement]
    /// What went wrong.
    public var kind: ReportKind
    /// The type the app expected, e.g. `String`.
    public var expected: String?
    /// The error's debug description.
    public var message: String?
    /// JSON text of the value at or around the failing path, already redacted.
    public var snippet: String?
    /// How many identical failures this report stands for.
    public var count: Int
    /// How the decoder turned the payload's keys into Swift names; `nil` when the sender did not say.
    public var keyDecoding: KeyDecoding?

    /// Creates a report.
    public init(
        occurredAt: Date, endpoint: String, type: String? = nil, path: [PathElement], kind: ReportKind,
        expected: String? = nil, message: String? = nil, snippet: String? = nil, count: Int = 1,
        keyDecoding: KeyDecoding? = nil
    ) {
        self.occurredAt = occurredAt
        self.endpoint = endpoint
        self.type = type
        self.path = path
        self.kind = kind
        self.expected = expected
        self.message = message
        self.snippet = snippet
        self.count = count
        self.keyDecoding = keyDecoding
    }

    @_spi(WireInternals) public enum CodingKeys: String, CodingKey {
        case occurredAt = "occurred_at"
        case endpoint, type, path, kind, expected, message, snippet, count
        case keyDecoding = "key_decoding"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let time = try container.decode(String.self, forKey: .occurredAt)
        guard let date = RFC3339.date(from: time) else {
            throw DecodingError.dataCorruptedError(
                forKey: .occurredAt, in: container, debugDescription: "not an RFC 3339 time: \(time)")
        }
        self.occurredAt = date
        self.endpoint = try container.decode(String.self, forKey: .endpoint)
        self.type = try container.decodeIfPresent(String.self, forKey: .type)
        self.path = try container.decode([PathElement].self, forKey: .path)
        let kind = try container.decode(String.self, forKey: .kind)
        guard let known = ReportKind(rawValue: kind) else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "unknown kind '\(kind)'")
        }
        self.kind = known
        self.expected = try container.decodeIfPresent(String.self, forKey: .expected)
        self.message = try container.decodeIfPresent(String.self, forKey: .message)
        self.snippet = try container.decodeIfPresent(String.self, forKey: .snippet)
        self.count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 1
        self.keyDecoding = try Self.keyDecoding(in: container)
    }

    /// `key_decoding`, when present: one of ``KeyDecoding``'s raw values.
    @_spi(WireInternals) public static func keyDecoding(
        in container: KeyedDecodingContainer<CodingKeys>
    ) throws -> KeyDecoding? {
        guard let name = try container.decodeIfPresent(String.self, forKey: .keyDecoding) else { return nil }
        guard let known = KeyDecoding(rawValue: name) else {
            throw DecodingError.dataCorruptedError(
                forKey: .keyDecoding, in: container, debugDescription: unknownKeyDecoding(name))
        }
        return known
    }

    /// The sentence that refuses an unknown `key_decoding`.
    @_spi(WireInternals) public static func unknownKeyDecoding(_ name: String) -> String {
        "unknown key_decoding '\(name)'; expected one of "
            + KeyDecoding.allCases.map(\.rawValue).joined(separator: ", ")
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(RFC3339.string(from: occurredAt), forKey: .occurredAt)
        try container.encode(endpoint, forKey: .endpoint)
        try container.encodeIfPresent(type, forKey: .type)
        try container.encode(path, forKey: .path)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(expected, forKey: .expected)
        try container.encodeIfPresent(message, forKey: .message)
        try container.encodeIfPresent(snippet, forKey: .snippet)
        if count != 1 { try container.encode(count, forKey: .count) }
        try container.encodeIfPresent(keyDecoding, forKey: .keyDecoding)
    }
}

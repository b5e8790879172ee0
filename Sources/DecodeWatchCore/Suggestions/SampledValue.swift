@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// The value a report's redacted snippet shows at the failing field.
///
/// A snippet is the failing value itself when a lenient wrapper caught the failure, and the object around it when
/// the key was missing or the whole payload failed (docs/wire-format.md#reports): an object holding the field's key
/// is read as that parent. A snippet cut at 2048 bytes is no longer JSON; its first character still tells its type.
struct SampledValue: Sendable, Hashable {
    /// The value's JSON type.
    var type: SampledJSONType
    /// A string's contents, or a number's or boolean's JSON text; `nil` for other types.
    var scalar: String?
    /// A number's value.
    var number: Double?

    /// No value.
    static let absent = SampledValue(type: .absent)

    init(type: SampledJSONType, scalar: String? = nil, number: Double? = nil) {
        self.type = type
        self.scalar = scalar
        self.number = number
    }

    /// Reads the value at a field from a snippet.
    /// - Parameters:
    ///   - snippet: the report's snippet.
    ///   - key: the field's key when the path ends in one, to look it up in a parent object.
    ///   - kind: the failure kind; a missing key is absent whatever the snippet shows.
    ///   - message: the report's message: without a snippet, Swift's "Expected to decode Int but found a string
    ///     instead." still tells the type.
    init(snippet: String?, key: String?, kind: ReportKind, message: String? = nil) {
        let text = snippet?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard kind != .keyNotFound else {
            self = .absent
            return
        }
        guard !text.isEmpty else {
            self = kind == .typeMismatch ? Self.found(in: message) : .absent
            return
        }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            self = Self.cut(text)
            return
        }
        if case .object(let members) = value, let key, let member = members[key] {
            self = member.sampled
        } else {
            self = value.sampled
        }
    }

    /// Reads the value at a field, named by its rendered path, from a snippet: how suggestions and contract drift
    /// both read a sample, so that the fix and the verdict never disagree on what was received.
    /// - Parameters:
    ///   - snippet: the report's snippet.
    ///   - path: the field's rendered JSONPath; its last key is looked up in a parent object.
    ///   - kind: the failure kind.
    ///   - message: the report's message.
    init(snippet: String?, path: String, kind: ReportKind, message: String? = nil) {
        let key: String?
        if case .key(let last)? = JSONPathStep.parse(path)?.last { key = last } else { key = nil }
        self.init(snippet: snippet, key: key, kind: kind, message: message)
    }

    /// The type Swift's type-mismatch message says it found, such as "but found a number instead".
    private static func found(in message: String?) -> SampledValue {
        guard let message, let start = message.range(of: "but found "),
            let end = message.range(of: " instead", range: start.upperBound..<message.endIndex)
        else { return .absent }
        var found = message[start.upperBound..<end.lowerBound]
        for article in ["a ", "an "] where found.hasPrefix(article) { found = found.dropFirst(article.count) }
        switch found {
        case "string": return SampledValue(type: .string)
        case "number": return SampledValue(type: .number)
        case "bool", "boolean": return SampledValue(type: .boolean)
        case "null": return SampledValue(type: .null)
        case "array": return SampledValue(type: .array)
        case "dictionary", "object": return SampledValue(type: .object)
        default: return .absent
        }
    }

    /// The type of a snippet that is not JSON (cut short), from its first character.
    private static func cut(_ text: String) -> SampledValue {
        switch text.first {
        case "{": return SampledValue(type: .object)
        case "[": return SampledValue(type: .array)
        case "\"": return SampledValue(type: .string)
        default: return .absent
        }
    }
}

extension JSONValue {
    /// What a sample says of this value.
    fileprivate var sampled: SampledValue {
        switch self {
        case .null: return SampledValue(type: .null)
        case .bool(let value): return SampledValue(type: .boolean, scalar: String(value))
        case .integer(let value): return .number(Double(value))
        case .number(let value): return .number(value)
        case .string(let value): return SampledValue(type: .string, scalar: value)
        case .array: return SampledValue(type: .array)
        case .object: return SampledValue(type: .object)
        }
    }
}

extension SampledValue {
    /// A number, its text as JSON writes it: integers without a fraction.
    fileprivate static func number(_ value: Double) -> SampledValue {
        let text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        return SampledValue(type: .number, scalar: text, number: value)
    }
}

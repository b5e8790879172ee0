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
        guard let value = try? JSONDecoder().decode(JSONSample.self, from: Data(text.utf8)) else {
            self = Self.cut(text)
            return
        }
        if case .object(let members) = value, let key, let member = members[key] {
            self = member.sampled
        } else {
            self = value.sampled
        }
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

/// Any JSON value, decoded only as deep as a sample needs.
private enum JSONSample: Decodable {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    case array
    case object([String: JSONSample])

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONSample] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONSample.self, forKey: key) }
            self = .object(members)
            return
        }
        if (try? decoder.unkeyedContainer()) != nil {
            self = .array
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let boolean = try? value.decode(Bool.self) {
            self = .boolean(boolean)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try value.decode(String.self))
        }
    }

    var sampled: SampledValue {
        switch self {
        case .null: return SampledValue(type: .null)
        case .boolean(let value): return SampledValue(type: .boolean, scalar: String(value))
        case .number(let value): return SampledValue(type: .number, scalar: Self.text(of: value), number: value)
        case .string(let value): return SampledValue(type: .string, scalar: value)
        case .array: return SampledValue(type: .array)
        case .object: return SampledValue(type: .object)
        }
    }

    /// A number as JSON writes it: integers without a fraction.
    private static func text(of number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

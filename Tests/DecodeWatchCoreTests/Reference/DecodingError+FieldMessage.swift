import DecodeWatchCore

/// Turns Swift decoding errors into the field-named sentences of error bodies (docs/wire-format.md#errors).
extension DecodingError {
    /// A message that starts with the JSON field, e.g. `reports[3].count: expected an integer`.
    var fieldMessage: String {
        switch self {
        case .keyNotFound(let key, let context):
            return "\(Self.render(context.codingPath + [key])): required field is missing"
        case .valueNotFound(_, let context):
            return "\(Self.render(context.codingPath)): must not be null"
        case .typeMismatch(let type, let context):
            if type == PathElement.self {
                return "\(Self.render(context.codingPath)): \(context.debugDescription)"
            }
            return "\(Self.render(context.codingPath)): expected \(Self.describe(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "the body is not valid JSON" }
            return "\(Self.render(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(self)"
        }
    }

    /// The coding path as a JSON field reference, e.g. `reports[3].path[0]`.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text.isEmpty ? "the body" : text
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "an integer"
        case is Bool.Type: return "true or false"
        case is [Any].Type: return "an array"
        default: return "an object"
        }
    }
}

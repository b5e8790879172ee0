/// Compact JSON text written by hand, as Python's `json.dumps(..., separators=(",", ":"))` writes it, so that the
/// batches keep the key order and shape of `realistic_batches.py` (JSONEncoder would order and escape differently).
enum JSONText {
    /// `text` as a JSON string: quoted, with `"`, `\` and control characters escaped.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += "\\u" + hex(UInt64(scalar.value), 4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A JSON object of `members` in their order.
    /// - Parameter members: each key with its value, already written as JSON text.
    static func object(_ members: KeyValuePairs<String, String>) -> String {
        "{" + members.map { string($0.key) + ":" + $0.value }.joined(separator: ",") + "}"
    }

    /// A JSON array of `elements`, each already written as JSON text.
    static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }
}

/// Renders a coding path as a wildcard JSONPath (SPEC §2, "Path").
///
/// `["results", 1, "title"]` becomes `$.results[*].title`; keys that are ids become `[*]`, so a
/// dictionary keyed by user id groups as one field.
public enum PathRenderer {
    /// Renders a path.
    /// - Parameter path: elements from the payload root to the failing value.
    /// - Returns: an RFC 9535 JSONPath with `[*]` wildcards.
    public static func render(_ path: [PathElement]) -> String {
        var text = "$"
        for element in path {
            switch element {
            case .index:
                text += "[*]"
            case .key(let key) where EndpointNormalizer.isIdentifierKey(key):
                text += "[*]"
            case .key(let key) where isMemberName(key):
                text += "." + key
            case .key(let key):
                text += "['"
                for character in key {
                    if character == "\\" || character == "'" { text.append("\\") }
                    text.append(character)
                }
                text += "']"
            }
        }
        return text
    }

    /// Whether a key matches `^[A-Za-z_][A-Za-z0-9_]*$` and can be written in dot notation.
    private static func isMemberName(_ key: String) -> Bool {
        guard let first = key.utf8.first, isLetter(first) || first == 0x5F else { return false }
        return key.utf8.allSatisfy { isLetter($0) || $0 == 0x5F || ($0 >= 0x30 && $0 <= 0x39) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}

import Foundation

/// Swift spellings for a suggestion's code: property and case names from JSON, type names from reports and specs.
enum SwiftNames {
    /// What stands for a type DecodeWatch cannot name: an Xcode placeholder, so the code shows where to fill it in.
    static let placeholder = "<#Type#>"

    /// Words a property cannot be named without backticks.
    private static let keywords: Set<String> = [
        "Any", "Self", "Type", "as", "associatedtype", "break", "case", "catch", "class", "continue", "default",
        "defer",
        "deinit", "do", "else", "enum", "extension", "fallthrough", "false", "fileprivate", "for", "func", "guard",
        "if",
        "import", "in", "init", "inout", "internal", "is", "let", "nil", "operator", "private", "protocol", "public",
        "repeat", "rethrows", "return", "self", "static", "struct", "subscript", "super", "switch", "throw", "throws",
        "true", "try", "typealias", "var", "where", "while",
    ]

    /// A property name for a JSON key, as the app's decoder names it: the key itself, or under `convertFromSnakeCase`
    /// the decoder's conversion of it (`avatar_url` → `avatarUrl`), when Swift accepts that as a name; else a
    /// camel-case rendering of it, which the app maps in `CodingKeys`.
    /// - Returns: the name, and the string its `CodingKeys` case must hold when the name is not the decoder's own.
    static func property(_ key: String, keyDecoding: KeyDecoding?) -> (name: String, codingKey: String?) {
        let decoded = keyDecoding == .convertFromSnakeCase ? fromSnakeCase(key) : key
        if isIdentifier(decoded) { return (keywords.contains(decoded) ? "`\(decoded)`" : decoded, nil) }
        return (camelCase(decoded, fallback: "value"), decoded)
    }

    /// The name `JSONDecoder`'s `convertFromSnakeCase` gives a key, by Foundation's rule: `avatar_url` → `avatarUrl`,
    /// `html_URL` → `htmlUrl`, `_private_id` → `_privateId`; underscores around the key stay, and a key without one
    /// inside stays as it is.
    static func fromSnakeCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }), let last = key.lastIndex(where: { $0 != "_" }) else {
            return key
        }
        let words = key[first...last].split(separator: "_")
        guard words.count > 1 else { return key }
        let joined = words[0].lowercased() + words.dropFirst().map(\.capitalized).joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }

    /// An enum case for a raw value: the value itself when it is a lower-case identifier, else its camel case.
    /// - Returns: the case's declaration, such as `case merged` or `case firstTimer = "FIRST_TIMER"`.
    static func enumCase(_ raw: String, isNumber: Bool) -> String {
        if isNumber {
            let digits = (raw.hasPrefix("-") ? "Minus" + raw.dropFirst() : raw).filter { $0.isLetter || $0.isNumber }
            return "case value\(digits) = \(raw)"
        }
        if isIdentifier(raw), raw.first?.isLowercase == true, !keywords.contains(raw) { return "case \(raw)" }
        return "case \(camelCase(raw, fallback: "value")) = \(quoted(raw))"
    }

    /// The Swift type a field holds: the app's expected type, else what the spec promises, else ``placeholder``.
    ///
    /// `Dictionary<String, Any>` and `Array<Any>` are what Swift names when a container was expected, not the app's
    /// type, so they count as unknown.
    static func type(expected: String?, spec: SpecView?) -> String {
        if let expected, !expected.isEmpty, !expected.contains("Any>") { return expected }
        guard let types = spec?.types, types.count == 1 else { return placeholder }
        switch types[0] {
        case "string": return spec?.format == "date-time" ? "Date" : "String"
        case "integer": return "Int"
        case "number": return "Double"
        case "boolean": return "Bool"
        default: return placeholder
        }
    }

    /// The Swift type that decodes a sampled scalar: `String`, `Bool`, `Int` or `Double`; `nil` for other types.
    static func type(of value: SampledValue) -> String? {
        switch value.type {
        case .string: return "String"
        case .boolean: return "Bool"
        case .number:
            // Without the value (only the message named its type), `Double` reads integers and fractions alike.
            guard let number = value.number else { return "Double" }
            return number == number.rounded() && abs(number) < 9.2e18 ? "Int" : "Double"
        default: return nil
        }
    }

    /// A Swift string literal.
    static func quoted(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            default:
                literal += scalar.value < 0x20 ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
        }
        return literal + "\""
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// `FIRST_TIMER` → `firstTimer`, `e-mail` → `eMail`; `fallback` when nothing is left, a leading `_` before a digit.
    private static func camelCase(_ text: String, fallback: String) -> String {
        let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
        guard let first = words.first else { return fallback }
        let lowered = { (word: String) in word.allSatisfy { !$0.isLowercase } ? word.lowercased() : word }
        var name = lowered(first).lowercasedFirst + words.dropFirst().map { lowered($0).capitalizedFirst }.joined()
        if name.first?.isNumber == true { name = "_" + name }
        return keywords.contains(name) ? "`\(name)`" : name
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
    fileprivate var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}

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

    /// A property name for a JSON key: the key itself when Swift accepts it, else a camel-case rendering of it.
    /// - Returns: the name, and whether it differs from the key (then the app maps it in `CodingKeys`).
    static func property(_ key: String) -> (name: String, renamed: Bool) {
        if isIdentifier(key) { return (keywords.contains(key) ? "`\(key)`" : key, false) }
        return (camelCase(key, fallback: "value"), true)
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

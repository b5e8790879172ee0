/// One step of a rendered field path (docs/wire-format.md#path): a named key, or `[*]`, an array element or an id-keyed
/// entry.
public enum JSONPathStep: Sendable, Hashable {
    /// An object key.
    case key(String)
    /// `[*]`: an array element, or a value of a dictionary keyed by ids.
    case wildcard
}

extension JSONPathStep {
    /// Splits a path rendered by `PathRenderer` (`$.results[*]['e-mail']`) back into steps.
    /// - Parameter path: a rendered path.
    /// - Returns: the steps, or `nil` when the text is not a rendered path.
    public static func parse(_ path: String) -> [JSONPathStep]? {
        var characters = Substring(path)
        guard characters.first == "$" else { return nil }
        characters = characters.dropFirst()
        var steps: [JSONPathStep] = []
        while let first = characters.first {
            if first == "." {
                characters = characters.dropFirst()
                let name = characters.prefix { $0 != "." && $0 != "[" }
                guard !name.isEmpty else { return nil }
                steps.append(.key(String(name)))
                characters = characters.dropFirst(name.count)
            } else if characters.hasPrefix("[*]") {
                steps.append(.wildcard)
                characters = characters.dropFirst(3)
            } else if characters.hasPrefix("['") {
                characters = characters.dropFirst(2)
                var key = ""
                var closed = false
                while let character = characters.popFirst() {
                    if character == "\\", let escaped = characters.popFirst() {
                        key.append(escaped)
                    } else if character == "'" {
                        closed = true
                        break
                    } else {
                        key.append(character)
                    }
                }
                guard closed, characters.popFirst() == "]" else { return nil }
                steps.append(.key(key))
            } else {
                return nil
            }
        }
        return steps
    }
}

extension JSONPathStep {
    /// Renders steps as `PathRenderer` does (`$.results[*].title`).
    public static func render(_ steps: [JSONPathStep]) -> String {
        var text = "$"
        for step in steps {
            switch step {
            case .wildcard:
                text += "[*]"
            case .key(let key):
                let plain =
                    key.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
                    && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                if plain {
                    text += "." + key
                } else {
                    text +=
                        "['"
                        + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
                        + "']"
                }
            }
        }
        return text
    }
}

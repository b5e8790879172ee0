import Foundation

/// Replaces personal data in JSON snippets with `"<redacted>"` (SPEC §7).
///
/// Values under sensitive keys (matched case-insensitively as substrings, ignoring `_` and `-`, so
/// `user_email` and `accessToken` match) and any string that looks like an e-mail address, a bearer
/// token, a JSON Web Token or a card number (13–19 digits passing the Luhn check) are replaced. A
/// snippet that is valid JSON is redacted as a tree, so nested objects under a sensitive key go too;
/// a snippet that is not (for example one cut at 2 KiB) is redacted as text, never passed through.
public struct Redactor: Sendable {
    /// The replacement text.
    public static let placeholder = "<redacted>"

    /// The key fragments redacted by default.
    public static let defaultSensitiveKeys = [
        "password", "passwd", "token", "secret", "authorization", "email", "phone", "apikey", "cookie",
        "session", "ssn", "cardnumber", "cvv", "iban",
    ]

    private let sensitiveKeys: [String]

    /// Creates a redactor.
    /// - Parameter sensitiveKeys: key fragments whose values are redacted; defaults to ``defaultSensitiveKeys``.
    public init(sensitiveKeys: [String] = Redactor.defaultSensitiveKeys) {
        self.sensitiveKeys = sensitiveKeys.map(Self.fold)
    }

    /// Redacts a JSON snippet.
    /// - Parameter snippet: JSON text, possibly truncated.
    /// - Returns: the snippet with sensitive values replaced.
    public func redact(_ snippet: String) -> String {
        let data = Data(snippet.utf8)
        if let tree = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            let out = try? JSONSerialization.data(
                withJSONObject: redact(value: tree), options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]),
            let text = String(data: out, encoding: .utf8)
        {
            return text
        }
        return redactText(snippet)
    }

    /// Redacts a JSON value already parsed by `JSONSerialization`.
    public func redact(value: Any) -> Any {
        switch value {
        case let object as [String: Any]:
            var result = [String: Any](minimumCapacity: object.count)
            for (key, child) in object {
                result[key] = isSensitive(key: key) ? Self.placeholder : redact(value: child)
            }
            return result
        case let array as [Any]:
            return array.map(redact(value:))
        case let string as String:
            return Self.looksSensitive(string) ? Self.placeholder : string
        case let number as NSNumber:
            // Card numbers are sometimes sent as JSON numbers.
            let text = number.stringValue
            return text.count >= 13 && Self.isCardNumber(text) ? Self.placeholder : number
        default:
            return value
        }
    }

    /// Whether values under this key are redacted.
    public func isSensitive(key: String) -> Bool {
        let folded = Self.fold(key)
        return sensitiveKeys.contains { folded.contains($0) }
    }

    /// Whether a string value looks like personal data or a credential.
    public static func looksSensitive(_ text: String) -> Bool {
        if text.count < 6 { return false }
        let range = NSRange(text.startIndex..., in: text)
        if emailPattern.firstMatch(in: text, range: range) != nil { return true }
        if bearerPattern.firstMatch(in: text, range: range) != nil { return true }
        if jwtPattern.firstMatch(in: text, range: range) != nil { return true }
        return cardCandidates(in: text).contains(where: isCardNumber)
    }

    private func redactText(_ text: String) -> String {
        var result = text
        let keyAlternatives = sensitiveKeys.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        // "…key…": "value" or a bare scalar; the value may be cut off at the end of the text.
        if let keyValue = try? NSRegularExpression(
            pattern: #"("[^"\\]*(?:"# + keyAlternatives + #")[^"\\]*"\s*:\s*)("(?:[^"\\]|\\.)*"?|[^,}\]\s]+)"#,
            options: [.caseInsensitive])
        {
            result = replace(keyValue, in: result, template: "$1\"\(Self.placeholder)\"")
        }
        for pattern in [Self.quotedEmailPattern, Self.quotedBearerPattern, Self.quotedJWTPattern] {
            result = replace(pattern, in: result, template: "\"\(Self.placeholder)\"")
        }
        for candidate in Self.cardCandidates(in: result) where Self.isCardNumber(candidate) {
            result = result.replacingOccurrences(of: candidate, with: Self.placeholder)
        }
        return result
    }

    private func replace(_ regex: NSRegularExpression, in text: String, template: String) -> String {
        regex.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
    }

    private static func fold(_ key: String) -> String {
        String(key.lowercased().filter { $0 != "_" && $0 != "-" })
    }

    /// Runs of 13–19 digits, optionally grouped by spaces or dashes.
    private static func cardCandidates(in text: String) -> [String] {
        let range = NSRange(text.startIndex..., in: text)
        return cardPattern.matches(in: text, range: range).compactMap {
            Range($0.range, in: text).map { String(text[$0]) }
        }
    }

    /// Whether the digits of a candidate form a 13–19 digit number passing the Luhn check.
    static func isCardNumber(_ candidate: String) -> Bool {
        let digits = candidate.compactMap(\.wholeNumberValue)
        guard (13...19).contains(digits.count) else { return false }
        var sum = 0
        for (offset, digit) in digits.reversed().enumerated() {
            if offset % 2 == 1 {
                let doubled = digit * 2
                sum += doubled > 9 ? doubled - 9 : doubled
            } else {
                sum += digit
            }
        }
        return sum % 10 == 0
    }

    private static let email = #"[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}"#
    private static let bearer = #"[Bb]earer\s+[A-Za-z0-9\-._~+/]+=*"#
    private static let jwt = #"eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*"#
    private static let cardPattern = try! NSRegularExpression(pattern: #"(?<![\d])\d(?:[ \-]?\d){12,18}(?![\d])"#)
    private static let emailPattern = try! NSRegularExpression(pattern: email)
    private static let bearerPattern = try! NSRegularExpression(pattern: bearer)
    private static let jwtPattern = try! NSRegularExpression(pattern: jwt)
    private static let quotedEmailPattern = try! NSRegularExpression(pattern: #""[^"]*"# + email + #"[^"]*""#)
    private static let quotedBearerPattern = try! NSRegularExpression(pattern: #""[^"]*"# + bearer + #"[^"]*""#)
    private static let quotedJWTPattern = try! NSRegularExpression(pattern: #""[^"]*"# + jwt + #"[^"]*""#)
}

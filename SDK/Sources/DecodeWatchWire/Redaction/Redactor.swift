import Foundation

/// Replaces personal data in snippets and messages with `<redacted>` (docs/wire-format.md#redaction).
///
/// Two things are redacted. Values under sensitive keys (``defaultSensitiveKeys`` plus the
/// operator's): the whole value, an object or array included. And, under any key, text that looks
/// like an e-mail address, a bearer token, a JSON Web Token, a well-known API key (`ghp_…`, `AKIA…`)
/// or a card number (13–19 digits, spaces or dashes allowed, passing the Luhn check).
///
/// Snippets that are valid JSON are redacted as a tree and written back with sorted keys; anything
/// else (a snippet cut at 2 KiB, an HTML error page, an error message) is redacted as text, which
/// understands keys in JSON (`"key": value`, also escaped inside a string), query-string and form
/// (`key=value`), header and YAML (`Key: value`) forms. Text is never passed through unredacted.
///
/// The SDK redacts on the device and the collector again before storing, so a snippet from an old or
/// foreign client is still redacted.
public struct Redactor: Sendable {
    /// The replacement text.
    public static let placeholder = "<redacted>"

    /// The key fragments redacted by default.
    ///
    /// Keys are folded (lower case, without `_`, `-`, `.` and spaces) before matching, so `apikey`
    /// covers `api_key`, `apiKey`, `API-KEY` and `x-api-key`. Fragments longer than four characters
    /// match anywhere in the key: `token` covers `access_token`, `X-Auth-Token`, and also `tokenizer`
    /// and `prompt_tokens`, a harmless loss accepted because credentials come in too many spellings to
    /// list. Fragments of four characters or fewer must be a whole word of the key (split at
    /// punctuation and camel case): `auth` covers `X-Auth` and `basic_auth` but not `author` or
    /// `author_association`, `pin` covers `pinCode` but not `shipping`.
    public static let defaultSensitiveKeys = [
        "password", "passwd", "passphrase", "pwd", "secret", "token", "apikey", "accesskey", "privatekey",
        "credential", "authorization", "auth", "cookie", "session", "csrf", "email", "phone", "birth", "ssn",
        "cardnumber", "creditcard", "cvv", "cvc", "pin", "otp", "iban",
    ]

    /// Largest snippet parsed as JSON, in UTF-8 bytes.
    ///
    /// `JSONSerialization` builds a tree of several times the text's size; a report's snippet may be
    /// as large as the whole 16 MiB body before the collector cuts it. Above this size the snippet is
    /// cut to the output size plus ``lookaheadBytes`` first and redacted as text, so the work per
    /// snippet stays bounded.
    public static let jsonParseLimit = 64 * 1024

    /// How much more than the output size is read before text is redacted and cut.
    ///
    /// A secret that lies across the final cut is then seen whole by the scanners; what lies across
    /// this earlier cut is handled as the end of a truncated text (see ``redactText(_:isTruncated:)``).
    public static let lookaheadBytes = 1024

    private let keys: SensitiveKeyMatcher

    /// Creates a redactor with exactly these key fragments.
    /// - Parameter sensitiveKeys: key fragments whose values are redacted; defaults to ``defaultSensitiveKeys``.
    public init(sensitiveKeys: [String] = Redactor.defaultSensitiveKeys) {
        self.keys = SensitiveKeyMatcher(fragments: sensitiveKeys)
    }

    /// Creates a redactor with the default key fragments and some of the operator's.
    ///
    /// What a `--redact-key` option wants: an operator adds the keys of their own API and keeps the
    /// defaults.
    /// - Parameter additionalKeys: key fragments redacted besides ``defaultSensitiveKeys``.
    public init(additionalKeys: [String]) {
        self.init(sensitiveKeys: Self.defaultSensitiveKeys + additionalKeys)
    }

    /// Redacts a report's snippet and cuts it to a size, in that order.
    ///
    /// Cutting first would leave invalid JSON whose last value is cut off; redacting first keeps the
    /// tree's view of keys. A snippet of valid JSON up to ``jsonParseLimit`` bytes is redacted as a
    /// tree and written back compactly with sorted keys; anything else is redacted as text, treated
    /// as possibly truncated.
    /// - Parameters:
    ///   - snippet: the snippet as received, of any size.
    ///   - maxBytes: the most UTF-8 bytes of the result (2048 in docs/wire-format.md#limits).
    /// - Returns: the redacted snippet, cut to `maxBytes` between characters.
    public func redactSnippet(_ snippet: String, maxBytes: Int) -> String {
        if snippet.utf8.count <= Self.jsonParseLimit, let json = redactedJSON(snippet, maxBytes: maxBytes) {
            return json
        }
        // Not JSON, or too large to parse: most likely JSON cut by a client, so its end is treated as cut.
        return redactText(utf8: snippet.utf8, maxBytes: maxBytes, assumeTruncated: true)
    }

    /// Redacts the start of a text of any size and cuts it to a size, in that order.
    ///
    /// Only `maxBytes` plus ``lookaheadBytes`` of the text are read, so a 16 MiB body costs what its
    /// first few KiB cost; when there was more, the end of what was read is treated as cut (see
    /// ``redactText(_:isTruncated:)``).
    /// - Parameters:
    ///   - text: UTF-8 text, e.g. a response body as `Data` or a string's `utf8` view.
    ///   - maxBytes: the most UTF-8 bytes of the result.
    /// - Returns: the redacted start of the text, cut to `maxBytes` between characters.
    public func redactText(utf8 text: some Collection<UInt8>, maxBytes: Int) -> String {
        redactText(utf8: text, maxBytes: maxBytes, assumeTruncated: false)
    }

    /// Redacts a report's message (an error's debug description) and cuts it to a length, in that order.
    ///
    /// A debug description may quote the value that failed to decode: an e-mail address, a token.
    /// At most `maxCharacters` plus ``lookaheadBytes`` characters are read, so the work is bounded.
    /// Characters are Unicode code points, as JSON Schema's `maxLength` counts them: a grapheme cluster has no
    /// bound on its length (a letter may carry any number of combining marks), a code point has at most 4 bytes.
    /// - Parameters:
    ///   - message: the message as received, of any length.
    ///   - maxCharacters: the most characters of the result (1000 in docs/wire-format.md#limits).
    /// - Returns: the redacted message, at most `maxCharacters` characters.
    public func redactMessage(_ message: String, maxCharacters: Int) -> String {
        // A text of no more bytes than a limit has no more characters either: only a longer one is cut.
        let limit = Self.adding(Self.lookaheadBytes, to: maxCharacters)
        let head = message.utf8.count <= limit ? message : message.prefix(codePoints: limit)
        let redacted = redactText(head, isTruncated: head.utf8.count < message.utf8.count)
        return redacted.utf8.count <= maxCharacters ? redacted : redacted.prefix(codePoints: maxCharacters)
    }

    /// Redacts a snippet without cutting it: as a tree when it is JSON, as text otherwise.
    ///
    /// Prefer ``redactSnippet(_:maxBytes:)``, which also bounds the work.
    /// - Parameter snippet: JSON text, possibly truncated, or any other text.
    /// - Returns: the snippet with sensitive values replaced.
    public func redact(_ snippet: String) -> String {
        redactSnippet(snippet, maxBytes: Int.max)
    }

    /// Redacts text that is not (or no longer) JSON: messages, HTML or plain-text bodies, cut JSON.
    ///
    /// Keys are recognized in the forms `"key": value` (also `\"key\": value` inside a JSON string),
    /// `key=value` (query strings, form bodies) and `key: value` (headers, YAML). The value goes
    /// whole: a string to its closing quote, an object or array to its closing bracket, a header or
    /// YAML value to the end of its line, a query-string value to the next `&`; and to the end of
    /// the text when it was cut before its end. Values that look like personal data are replaced
    /// wherever they are, keeping the text around them (`call <redacted>`).
    /// - Parameters:
    ///   - text: the text.
    ///   - isTruncated: whether `text` was cut from a longer one; then what may be the beginning of a
    ///     secret at its very end (`ann@exa`, `4111 1111 11`, `eyJhbG`) is redacted too.
    /// - Returns: the text with sensitive values replaced.
    public func redactText(_ text: String, isTruncated: Bool = false) -> String {
        TextRedaction.redact(text, keys: keys, isTruncated: isTruncated)
    }

    /// Redacts a JSON value parsed by `JSONSerialization`.
    /// - Parameter value: a dictionary, array, string, number or null.
    /// - Returns: the value with values under sensitive keys replaced by ``placeholder`` and strings redacted as text.
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
            return redactText(string)
        case let number as NSNumber:
            // Card numbers are sometimes sent as JSON numbers.
            return Self.looksSensitive(number.stringValue) ? Self.placeholder : number
        default:
            return value
        }
    }

    /// Whether values under this key are redacted.
    /// - Parameter key: a JSON key, header or parameter name.
    /// - Returns: true when the key contains a sensitive fragment by the rules of ``defaultSensitiveKeys``.
    public func isSensitive(key: String) -> Bool {
        keys.matches(key.utf8)
    }

    /// Whether a value looks like personal data or a credential, whatever key it is under.
    /// - Parameter text: a value.
    /// - Returns: true when it holds an e-mail address, a bearer token, a JWT, a well-known API key or a card number.
    public static func looksSensitive(_ text: String) -> Bool {
        TextRedaction.containsSensitiveValue(text)
    }

    /// The snippet redacted as a JSON tree and written back, cut to `maxBytes`; nil when it is not JSON.
    /// - Parameter plainFirst: whether plain JSON is read without `JSONSerialization` (``PlainJSONReader``), which
    ///   gives the same tree; `false` only to compare the two.
    @_spi(WireInternals) public func redactedJSON(_ snippet: String, maxBytes: Int, plainFirst: Bool = true) -> String? {
        // Most text that is not JSON says so in its first byte; a failed parse costs an error object.
        // Foundation's JSON parser drops U+FEFF at the start of a string, as if it were a byte order mark: a snippet
        // holding one is redacted as text, which keeps every character.
        guard let first = snippet.utf8.first(where: { !Self.jsonWhitespace.contains($0) }),
            Self.jsonFirstBytes.contains(first), !snippet.unicodeScalars.contains("\u{FEFF}"),
            let tree = (plainFirst ? PlainJSONReader.tree(of: snippet) : nil)
                ?? (try? JSONSerialization.jsonObject(with: Data(snippet.utf8), options: [.fragmentsAllowed]))
        else { return nil }
        var buffer = JSONTextBuffer(limit: maxBytes)
        writeRedacted(tree, into: &buffer)
        return buffer.result
    }

    private func redactText(utf8 text: some Collection<UInt8>, maxBytes: Int, assumeTruncated: Bool) -> String {
        let head = text.prefix(Self.adding(Self.lookaheadBytes, to: maxBytes))
        let isTruncated = assumeTruncated || head.count < text.count
        return redactText(String(decoding: head, as: UTF8.self), isTruncated: isTruncated).utf8Prefix(maxBytes)
    }

    /// `limit + extra` without overflowing, for callers that pass `Int.max` as "no limit".
    private static func adding(_ extra: Int, to limit: Int) -> Int {
        limit > Int.max - extra ? Int.max : limit + extra
    }

    private static let jsonWhitespace = Set(" \t\r\n".utf8)
    private static let jsonFirstBytes = Set("{[\"-0123456789tfn".utf8)
}

extension String {
    /// The first `limit` Unicode code points (all of it when it has fewer).
    @_spi(WireInternals) public func prefix(codePoints limit: Int) -> String {
        String(String.UnicodeScalarView(unicodeScalars.prefix(limit)))
    }

    /// The number of Unicode code points: what limits in characters count (docs/wire-format.md#text-and-times), as JSON
    /// Schema does.
    @_spi(WireInternals) public var codePointCount: Int { unicodeScalars.count }

    /// The text with each U+0000 replaced by U+FFFD: the collector refuses a report holding U+0000, which no
    /// database stores in text, and a key or message from a payload may hold one.
    @_spi(WireInternals) public var withoutNUL: String {
        guard utf8.contains(0) else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.lazy.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
    }

    /// The longest prefix of at most `limit` UTF-8 bytes that ends between Unicode scalars.
    fileprivate func utf8Prefix(_ limit: Int) -> String {
        guard utf8.count > limit else { return self }
        var end = utf8.index(utf8.startIndex, offsetBy: max(limit, 0))
        // Step back over UTF-8 continuation bytes (10xxxxxx) so the cut falls between scalars.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(self[..<end])
    }
}

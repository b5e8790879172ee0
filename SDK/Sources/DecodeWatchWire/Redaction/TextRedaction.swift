/// The text scanners behind ``Redactor/redactText(_:isTruncated:)``.
///
/// Hand-written scans over UTF-8 bytes rather than regular expressions: `NSRegularExpression` on
/// Linux converts to UTF-16 and is slow, and the shapes looked for (a key and its value in JSON,
/// query-string, header or YAML form; e-mail addresses; tokens; card numbers) are simpler to bound by
/// hand. Each scanner only records byte ranges; overlapping ranges are merged and each replaced once.
/// Every range starts and ends on an ASCII byte or at the end of the text, so the result stays UTF-8.
struct TextRedaction {
    /// How a redacted range is written back.
    enum Style {
        /// `<redacted>`: text, a query-string or header value.
        case bare
        /// `"<redacted>"`: a JSON value.
        case quoted
        /// `\"<redacted>\"`: a JSON value inside a JSON string (escaped JSON).
        case escapedQuoted
    }

    private struct Replacement {
        var range: Range<Int>
        var style: Style
    }

    /// Longest key looked at; longer runs are text, not keys.
    static let maxKeyLength = 128
    /// How far from a sensitive `name` attribute the other attributes of its HTML tag are looked for.
    static let maxTagLength = 512

    private let bytes: [UInt8]
    private let keys: SensitiveKeyMatcher
    private var replacements: [Replacement] = []

    /// Redacts `text` with the sensitive keys of `keys`.
    static func redact(_ text: String, keys: SensitiveKeyMatcher, isTruncated: Bool) -> String {
        var scan = TextRedaction(bytes: Array(text.utf8), keys: keys)
        scan.scanAll(isTruncated: isTruncated)
        return scan.replacements.isEmpty ? text : scan.result()
    }

    /// Whether `text` holds a value that looks like personal data, whatever key it is under.
    static func containsSensitiveValue(_ text: String) -> Bool {
        var scan = TextRedaction(bytes: Array(text.utf8), keys: SensitiveKeyMatcher(fragments: []))
        scan.scanValues(summary: Summary(scan.bytes))
        return !scan.replacements.isEmpty
    }

    private init(bytes: [UInt8], keys: SensitiveKeyMatcher) {
        self.bytes = bytes
        self.keys = keys
    }

    /// Which scanners can possibly find something, from one pass over the text.
    private struct Summary {
        var digits = 0
        var at = false
        var separator = false
        var letters = false

        init(_ bytes: [UInt8]) {
            for byte in bytes {
                switch byte {
                case Byte.zero...Byte.nine: digits += 1
                case Byte.at: at = true
                case Byte.percent: at = true  // `%40`, a URL-encoded @
                case Byte.colon, Byte.equals: separator = true
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): letters = true
                default: break
                }
            }
        }
    }

    private mutating func scanAll(isTruncated: Bool) {
        let summary = Summary(bytes)
        if summary.separator { scanKeyValues() }
        scanValues(summary: summary)
        if isTruncated { scanTail() }
    }

    private mutating func scanValues(summary: Summary) {
        if summary.at { scanEmails() }
        if summary.letters { scanTokens() }
        if summary.digits >= 13 { scanCardNumbers() }
    }

    // MARK: - Keys and values

    /// Finds `"key": value`, `\"key\": value`, `key=value` and `key: value` with a sensitive key, and
    /// records the value: a string, an object or array (balanced, or to the end of a cut text), or a
    /// scalar up to the delimiter of its form.
    private mutating func scanKeyValues() {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Byte.quote {
                guard let key = quotedKey(at: index) else {
                    index += 1
                    continue
                }
                if keys.matches(bytes[key.name]) {
                    let style: Style = key.escaped ? .escapedQuoted : .quoted
                    let value = valueRange(from: key.valueStart, scalarEnds: Self.jsonScalarEnds)
                    if !value.isEmpty { record(value, style) }
                    index = max(value.upperBound, key.valueStart)
                } else {
                    index = key.valueStart
                }
            } else if Self.isKeyByte(byte), index == 0 || !Self.isKeyByte(bytes[index - 1]) {
                var end = index
                while end < bytes.count, Self.isKeyByte(bytes[end]) { end += 1 }
                guard end - index <= Self.maxKeyLength, let separator = separator(after: end) else {
                    index = end
                    continue
                }
                if keys.matches(bytes[index..<end]) {
                    let value = valueRange(
                        from: separator.valueStart,
                        scalarEnds: separator.isEquals ? Self.queryScalarEnds : Self.headerScalarEnds)
                    if !value.isEmpty { record(value, .bare) }
                    index = max(value.upperBound, separator.valueStart)
                } else {
                    if separator.isEquals { redactHTMLField(named: index..<end, valueStart: separator.valueStart) }
                    index = separator.valueStart
                }
            } else {
                index += 1
            }
        }
    }

    /// A quoted key starting at `start`: its name, whether it is escaped (`\"key\"`), and where its
    /// value starts after the `:` or `=`. Nil when the quoted text is not followed by a separator.
    private func quotedKey(at start: Int) -> (name: Range<Int>, escaped: Bool, valueStart: Int)? {
        let escaped = isEscaped(start)
        var end = start + 1
        let limit = min(bytes.count, start + 1 + Self.maxKeyLength)
        while end < limit {
            let byte = bytes[end]
            if byte == Byte.newline { return nil }
            if byte == Byte.quote, escaped ? bytes[end - 1] == Byte.backslash : !isEscaped(end) { break }
            end += 1
        }
        guard end < limit else { return nil }
        let nameEnd = escaped ? end - 1 : end
        guard nameEnd > start + 1, let separator = separator(after: end + 1) else { return nil }
        return (start + 1..<nameEnd, escaped, separator.valueStart)
    }

    /// After optional blanks, a `:` or `=` and optional blanks: whether it is `=`, and the index past
    /// them, where the value starts. Nil when there is no separator.
    private func separator(after start: Int) -> (isEquals: Bool, valueStart: Int)? {
        let index = skipBlanks(from: start)
        guard index < bytes.count, bytes[index] == Byte.colon || bytes[index] == Byte.equals else { return nil }
        // `::` (IPv6, C++ names) and `==` (comparisons) are not key-value separators.
        if index + 1 < bytes.count, bytes[index + 1] == bytes[index] { return nil }
        return (bytes[index] == Byte.equals, skipBlanks(from: index + 1))
    }

    /// The extent of a value starting at `start`.
    private func valueRange(from start: Int, scalarEnds: Set<UInt8>) -> Range<Int> {
        guard start < bytes.count else { return start..<start }
        let first = bytes[start]
        if first == Byte.backslash, start + 1 < bytes.count, bytes[start + 1] == Byte.quote {
            return start..<escapedStringEnd(from: start + 2)
        }
        if first == Byte.quote {
            var index = start + 1
            while index < bytes.count, !(bytes[index] == Byte.quote && !isEscaped(index)) { index += 1 }
            return start..<min(index + 1, bytes.count)
        }
        if first == Byte.apostrophe {
            // `password: 'hunter2'` (YAML, shell, SQL): to the closing apostrophe.
            var index = start + 1
            while index < bytes.count, bytes[index] != Byte.apostrophe { index += 1 }
            return start..<min(index + 1, bytes.count)
        }
        if first == Byte.openBrace || first == Byte.openBracket {
            return start..<balancedEnd(from: start)
        }
        var end = start
        while end < bytes.count, !scalarEnds.contains(bytes[end]) { end += 1 }
        while end > start, bytes[end - 1] == Byte.space || bytes[end - 1] == Byte.tab { end -= 1 }
        return start..<end
    }

    /// The end (past the closing `\"`) of a string of escaped JSON whose content starts at `start`.
    ///
    /// A quote preceded by n backslashes closes it when n ≡ 1 (mod 4): one backslash escapes the quote
    /// for the outer string, and pairs of the rest stand for backslashes of the inner one.
    private func escapedStringEnd(from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            if bytes[index] == Byte.quote, backslashes(before: index) % 4 == 1 { return index + 1 }
            index += 1
        }
        return bytes.count
    }

    /// The end (past the matching bracket) of an object or array, or the end of a cut text.
    private func balancedEnd(from start: Int) -> Int {
        var depth = 0
        var inString = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Byte.quote, backslashes(before: index) % 2 == 0 {
                inString.toggle()
            } else if !inString {
                if byte == Byte.openBrace || byte == Byte.openBracket {
                    depth += 1
                } else if byte == Byte.closeBrace || byte == Byte.closeBracket {
                    depth -= 1
                    if depth == 0 { return index + 1 }
                }
            }
            index += 1
        }
        return bytes.count
    }

    /// `<input name="password" value="…">`, `<meta name="csrf-token" content="…">`: an HTML field whose
    /// name is sensitive keeps its value in another attribute of the same tag, before or after the name.
    private mutating func redactHTMLField(named key: Range<Int>, valueStart: Int) {
        guard key.count == 4, matchesIgnoringCase(Self.nameAttribute, at: key.lowerBound),
            valueStart < bytes.count, bytes[valueStart] == Byte.quote || bytes[valueStart] == Byte.apostrophe
        else { return }
        let delimiter = bytes[valueStart]
        var nameEnd = valueStart + 1
        while nameEnd < bytes.count, bytes[nameEnd] != delimiter, nameEnd - valueStart <= Self.maxKeyLength {
            nameEnd += 1
        }
        guard nameEnd < bytes.count, bytes[nameEnd] == delimiter, keys.matches(bytes[(valueStart + 1)..<nameEnd])
        else { return }
        // A tag is short; the bound keeps text full of `name="password"` and no `<` linear.
        var tagEnd = nameEnd
        while tagEnd < bytes.count, tagEnd - nameEnd < Self.maxTagLength, bytes[tagEnd] != Byte.greater {
            tagEnd += 1
        }
        var index = key.lowerBound
        while index > 0, key.lowerBound - index < Self.maxTagLength, bytes[index - 1] != Byte.less,
            bytes[index - 1] != Byte.greater
        {
            index -= 1
        }
        while index < tagEnd {
            for attribute in Self.htmlValueAttributes where matchesIgnoringCase(attribute, at: index) {
                let start = skipBlanks(from: index + attribute.count)
                guard start < tagEnd, bytes[start] == Byte.quote || bytes[start] == Byte.apostrophe else { continue }
                var end = start + 1
                while end < tagEnd, bytes[end] != bytes[start] { end += 1 }
                if end > start + 1 { record(start + 1..<end, .bare) }
            }
            index += 1
        }
    }

    // MARK: - Values whatever their key

    /// E-mail addresses: a local part, `@` (or `%40`), and a domain ending in a label of two or more letters.
    private mutating func scanEmails() {
        var index = 0
        while index < bytes.count {
            let atLength: Int
            if bytes[index] == Byte.at {
                atLength = 1
            } else if bytes[index] == Byte.percent, matchesIgnoringCase(Self.encodedAt, at: index) {
                atLength = 3
            } else {
                index += 1
                continue
            }
            var start = index
            while start > 0, index - start < 64, Self.isLocalPartByte(bytes[start - 1]) { start -= 1 }
            var limit = index + atLength
            while limit < bytes.count, limit - index < 256, Self.isDomainByte(bytes[limit]) { limit += 1 }
            // `git@github.com:owner/repo.git` is the SSH user of every Git host, not a person's address.
            let isGitUser = index - start == 3 && bytes[start..<index].elementsEqual("git".utf8)
            if start < index, !isGitUser, let end = domainEnd(from: index + atLength, limit: limit) {
                record(start..<end, .bare)
                index = end
            } else {
                index += atLength
            }
        }
    }

    /// Bearer tokens (the word `Bearer` is kept), JSON Web Tokens and tokens with a well-known prefix.
    private mutating func scanTokens() {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            // `?t=eyJ…` and `/eyJ…` start a token too: only a base64url byte before it continues a word.
            guard Self.tokenStarts.contains(byte), index == 0 || !Self.isBase64URLByte(bytes[index - 1]) else {
                index += 1
                continue
            }
            if matchesIgnoringCase(Self.bearer, at: index) {
                let start = skipBlanks(from: index + Self.bearer.count)
                var end = start
                while end < bytes.count, Self.isTokenByte(bytes[end]) { end += 1 }
                if start > index + Self.bearer.count, end > start {
                    record(start..<end, .bare)
                    index = end
                    continue
                }
            }
            let end = tokenEnd(from: index)
            let length = end - index
            if matchesIgnoringCase(Self.jwtStart, at: index, exactCase: true), length >= 13 {
                record(index..<end, .bare)
            } else if let prefix = Self.tokenPrefixes.first(where: {
                matchesIgnoringCase($0, at: index, exactCase: true)
            }),
                length - prefix.count >= 16
            {
                record(index..<end, .bare)
            }
            index = max(end, index + 1)
        }
    }

    /// The end of a run of token bytes, without a trailing `.` (the end of a sentence).
    private func tokenEnd(from start: Int) -> Int {
        var end = start
        while end < bytes.count, Self.isTokenByte(bytes[end]) { end += 1 }
        while end > start, bytes[end - 1] == Byte.dot { end -= 1 }
        return end
    }

    /// Card numbers: 13–19 digits passing the Luhn check, in groups joined by single spaces or dashes,
    /// with no digit right before or after.
    private mutating func scanCardNumbers() {
        var index = 0
        var groups: [Range<Int>] = []
        while index < bytes.count {
            guard Self.isDigit(bytes[index]) else {
                index += 1
                continue
            }
            groups.removeAll(keepingCapacity: true)
            var start = index
            while true {
                var end = start
                while end < bytes.count, Self.isDigit(bytes[end]) { end += 1 }
                groups.append(start..<end)
                guard end + 1 < bytes.count, bytes[end] == Byte.space || bytes[end] == Byte.dash,
                    Self.isDigit(bytes[end + 1])
                else { break }
                start = end + 1
            }
            recordCardNumbers(in: groups)
            index = groups[groups.count - 1].upperBound
        }
    }

    /// The longest runs of whole groups with 13–19 digits that pass the Luhn check, left to right.
    private mutating func recordCardNumbers(in groups: [Range<Int>]) {
        var first = 0
        outer: while first < groups.count {
            var ends: [(group: Int, digits: Int)] = []
            var digits = 0
            for last in first..<groups.count {
                digits += groups[last].count
                if digits > 19 { break }
                if digits >= 13 { ends.append((last, digits)) }
            }
            for end in ends.reversed()
            where Self.passesLuhn(bytes[groups[first].lowerBound..<groups[end.group].upperBound]) {
                record(groups[first].lowerBound..<groups[end.group].upperBound, .bare)
                first = end.group + 1
                continue outer
            }
            first += 1
        }
    }

    // MARK: - The end of a cut text

    /// What may be the beginning of a secret at the end of a text cut from a longer one: an e-mail
    /// address without its domain, the first digits of a card number, the start of a token.
    private mutating func scanTail() {
        var start = bytes.count
        while start > 0, Self.isLocalPartByte(bytes[start - 1]) || bytes[start - 1] == Byte.at { start -= 1 }
        if bytes[start...].contains(Byte.at)
            || (start..<bytes.count).contains(where: { matchesIgnoringCase(Self.encodedAt, at: $0) })
        {
            record(start..<bytes.count, .bare)
        }
        start = bytes.count
        while start > 0, Self.isBase64URLByte(bytes[start - 1]) || bytes[start - 1] == Byte.dot { start -= 1 }
        if matchesIgnoringCase(Self.jwtStart, at: start, exactCase: true)
            || Self.tokenPrefixes.contains(where: { matchesIgnoringCase($0, at: start, exactCase: true) })
        {
            record(start..<bytes.count, .bare)
        }
        start = bytes.count
        var digits = 0
        while start > 0,
            Self.isDigit(bytes[start - 1]) || bytes[start - 1] == Byte.space || bytes[start - 1] == Byte.dash
        {
            start -= 1
            if Self.isDigit(bytes[start]) { digits += 1 }
        }
        while start < bytes.count, !Self.isDigit(bytes[start]) { start += 1 }
        // More than the six-digit issuer prefix that PCI DSS allows to show.
        if digits > 6, start < bytes.count, Self.isDigit(bytes[bytes.count - 1]) {
            record(start..<bytes.count, .bare)
        }
    }

    // MARK: - Building the result

    private mutating func record(_ range: Range<Int>, _ style: Style) {
        replacements.append(Replacement(range: range, style: style))
    }

    /// The text with each merged range replaced by the placeholder.
    private func result() -> String {
        let sorted = replacements.sorted { $0.range.lowerBound < $1.range.lowerBound }
        var merged: [Replacement] = []
        for replacement in sorted {
            if let last = merged.last, replacement.range.lowerBound < last.range.upperBound {
                // A value inside a redacted value: the outer one's form wins.
                merged[merged.count - 1].range =
                    last.range.lowerBound..<max(last.range.upperBound, replacement.range.upperBound)
            } else {
                merged.append(replacement)
            }
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var position = 0
        for replacement in merged {
            output.append(contentsOf: bytes[position..<replacement.range.lowerBound])
            switch replacement.style {
            case .bare: output.append(contentsOf: Self.placeholder)
            case .quoted: output.append(contentsOf: Self.quotedPlaceholder)
            case .escapedQuoted: output.append(contentsOf: Self.escapedPlaceholder)
            }
            position = replacement.range.upperBound
        }
        output.append(contentsOf: bytes[position...])
        return String(decoding: output, as: UTF8.self)
    }

    // MARK: - Byte helpers

    private func skipBlanks(from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == Byte.space || bytes[index] == Byte.tab { index += 1 }
        return index
    }

    private func backslashes(before index: Int) -> Int {
        var count = 0
        while index - count > 0, bytes[index - count - 1] == Byte.backslash { count += 1 }
        return count
    }

    private func isEscaped(_ index: Int) -> Bool { backslashes(before: index) % 2 == 1 }

    /// Whether `pattern` (lower case) is at `index`, ignoring ASCII case unless `exactCase`.
    private func matchesIgnoringCase(_ pattern: [UInt8], at index: Int, exactCase: Bool = false) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        for (offset, expected) in pattern.enumerated() {
            let byte = bytes[index + offset]
            if byte != expected, exactCase || byte | 0x20 != expected { return false }
        }
        return true
    }

    /// The end of the longest domain in `start..<limit` whose last label is two or more letters.
    ///
    /// Not simply the end of the run: in `ann@shell.com1714467250` (a Git commit header) the address
    /// ends before the digits.
    private func domainEnd(from start: Int, limit: Int) -> Int? {
        var end: Int?
        var index = start
        while index < limit {
            if bytes[index] == Byte.dot, index > start {
                var letters = index + 1
                while letters < limit, Self.isLetter(bytes[letters]) { letters += 1 }
                if letters - index > 2 { end = letters }
            }
            index += 1
        }
        return end
    }

    private static func passesLuhn(_ candidate: ArraySlice<UInt8>) -> Bool {
        var sum = 0
        var offset = 0
        for byte in candidate.reversed() where isDigit(byte) {
            let digit = Int(byte - Byte.zero)
            if offset % 2 == 1 {
                sum += digit > 4 ? digit * 2 - 9 : digit * 2
            } else {
                sum += digit
            }
            offset += 1
        }
        return sum % 10 == 0
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= Byte.zero && byte <= Byte.nine }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isLetter(byte) }

    /// Bytes of a bare key: `X-Auth-Token`, `user[password]`, `app.secret`.
    private static func isKeyByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == Byte.underscore || byte == Byte.dash || byte == Byte.dot
            || byte == Byte.openBracket || byte == Byte.closeBracket
    }

    private static func isLocalPartByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == Byte.dot || byte == Byte.underscore || byte == Byte.percent
            || byte == Byte.plus || byte == Byte.dash
    }

    private static func isDomainByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == Byte.dot || byte == Byte.dash
    }

    private static func isBase64URLByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == Byte.dash || byte == Byte.underscore
    }

    /// Bytes of a token: base64, base64url, and the `.` between the parts of a JWT.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == Byte.dash || byte == Byte.underscore || byte == Byte.dot
            || byte == UInt8(ascii: "~") || byte == Byte.plus || byte == UInt8(ascii: "/") || byte == Byte.equals
    }

    // MARK: - Constants

    /// A JSON scalar ends at the next member or the end of its container; a value cut by a line break
    /// (text that only looks like JSON) ends there too.
    private static let jsonScalarEnds: Set<UInt8> = [
        Byte.comma, Byte.closeBrace, Byte.closeBracket, Byte.newline, Byte.carriageReturn, Byte.quote,
        Byte.backslash,
    ]
    /// A query-string or form value ends at the next parameter or at anything that cannot be in a URL.
    private static let queryScalarEnds: Set<UInt8> = [
        Byte.ampersand, Byte.semicolon, Byte.comma, Byte.space, Byte.tab, Byte.newline, Byte.carriageReturn,
        Byte.quote, Byte.apostrophe, Byte.backslash, Byte.less, Byte.greater, Byte.closeBrace, Byte.closeBracket,
        UInt8(ascii: ")"),
    ]
    /// A header or YAML value runs to the end of its line (`Cookie: a=1; b=2` is one secret), or to the
    /// end of the string or tag it sits in.
    private static let headerScalarEnds: Set<UInt8> = [
        Byte.newline, Byte.carriageReturn, Byte.quote, Byte.apostrophe, Byte.backslash, Byte.less, Byte.closeBrace,
        Byte.closeBracket,
    ]
    private static let nameAttribute = Array("name".utf8)
    private static let htmlValueAttributes = [Array("value=".utf8), Array("content=".utf8)]
    private static let bearer = Array("bearer".utf8)
    private static let encodedAt = Array("%40".utf8)
    private static let jwtStart = Array("eyJ".utf8)
    /// Prefixes of credentials issued by GitHub, GitLab, Slack, Stripe, AWS and Google: recognizable
    /// without a key, and never ordinary words.
    private static let tokenPrefixes = [
        "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xoxa-", "sk_live_",
        "rk_live_", "AKIA", "AIza",
    ].map { Array($0.utf8) }
    /// First bytes of the tokens above, to skip most words at once.
    private static let tokenStarts = Set("bBegxsrA".utf8)
    private static let placeholder = Array(Redactor.placeholder.utf8)
    private static let quotedPlaceholder = Array("\"\(Redactor.placeholder)\"".utf8)
    private static let escapedPlaceholder = Array("\\\"\(Redactor.placeholder)\\\"".utf8)
}

/// ASCII bytes the scanners look for.
private enum Byte {
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let at = UInt8(ascii: "@")
    static let percent = UInt8(ascii: "%")
    static let colon = UInt8(ascii: ":")
    static let equals = UInt8(ascii: "=")
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let dot = UInt8(ascii: ".")
    static let dash = UInt8(ascii: "-")
    static let underscore = UInt8(ascii: "_")
    static let plus = UInt8(ascii: "+")
    static let comma = UInt8(ascii: ",")
    static let semicolon = UInt8(ascii: ";")
    static let ampersand = UInt8(ascii: "&")
    static let less = UInt8(ascii: "<")
    static let greater = UInt8(ascii: ">")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
}

/// Checks that bytes are one JSON text as RFC 8259 defines it, before any decoder sees them.
///
/// The ingest contract (docs/wire-format.md#strict-json) refuses a body that is not strict RFC 8259 JSON, but
/// Foundation's `JSONDecoder` on Linux accepts trailing commas, raw control characters in strings, unknown escapes and
/// numbers such as `01`. Without this check what the collector accepts would depend on a decoder's leniency, and
/// clients would learn to send text that other JSON tools refuse. The error names the line and column where the
/// text stops being JSON, so the 400 answer tells the client's author what to fix.
///
/// The check is one pass over the bytes that allocates nothing per value. Nesting is tracked in a bit stack
/// rather than by recursion, so a hostile body of a million `[` costs a few words and stops at the depth limit.
public enum StrictJSON {
    /// Most nesting of arrays and objects accepted (a hostile body must not exhaust the stack).
    ///
    /// Real batches nest four deep (batch, reports, a report, its path); 128 leaves room for the unknown fields a
    /// later SDK may send (the wire format ignores them: docs/wire-format.md#batch) while bounding what the recursive
    /// decoder after this must survive.
    public static let defaultMaxDepth = 128

    /// Checks that `bytes` are exactly one RFC 8259 JSON text.
    ///
    /// Any value is accepted at the top level (the caller checks that it is an object). Whitespace is only
    /// space, tab, LF and CR; strings must be valid UTF-8 with only the escapes RFC 8259 lists and no lone
    /// surrogates; a byte order mark, comments, trailing commas, `NaN` and `Infinity` are refused.
    ///
    /// - Parameters:
    ///   - bytes: the whole body, already inflated.
    ///   - maxDepth: the most arrays and objects that may be open at once; a negative value counts as 0.
    /// - Throws: ``JSONSyntaxError`` naming where the text stops being JSON, the first problem only.
    public static func validate(
        _ bytes: UnsafeRawBufferPointer,
        maxDepth: Int = defaultMaxDepth
    ) throws(JSONSyntaxError) {
        try withScanner(over: bytes, maxDepth: maxDepth) { scanner throws(JSONSyntaxError) in try scanner.scanText() }
    }

    /// Runs `body` with a scanner at the start of `bytes`, its container stack on the call stack: the one set-up
    /// of the strict check and of readers that check as they go.
    ///
    /// - Parameters:
    ///   - bytes: the whole body, already inflated.
    ///   - maxDepth: the most arrays and objects that may be open at once; a negative value counts as 0.
    ///   - body: what to scan.
    /// - Throws: ``JSONSyntaxError`` for an empty body, or what `body` throws.
    static func withScanner<Result>(
        over bytes: UnsafeRawBufferPointer, maxDepth: Int,
        _ body: (inout StrictJSONScanner) throws(JSONSyntaxError) -> Result
    ) throws(JSONSyntaxError) -> Result {
        let limit = max(0, maxDepth)
        // Every level of nesting takes at least one byte, so the stack never needs more bits than the body has
        // bytes: a caller may pass a huge limit without making small bodies pay for it.
        let words = min(limit, bytes.count) / 64 + 1
        return try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: words) {
            (stack: UnsafeMutableBufferPointer<UInt64>) throws(JSONSyntaxError) in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                throw JSONSyntaxError(offset: 0, reason: "empty body; expected a JSON text", in: bytes)
            }
            var scanner = StrictJSONScanner(bytes: bytes, base: base, maxDepth: limit, stack: stack)
            return try body(&scanner)
        }
    }
}

/// The state of one validation: a cursor over the bytes and the stack of open containers.
///
/// Error messages are built only on the error paths (``fail(_:_:)`` and the `…Reason` helpers are kept out of
/// line) so that the loops over valid text stay small.
struct StrictJSONScanner {
    let bytes: UnsafeRawBufferPointer
    let base: UnsafeRawPointer
    let end: Int
    let maxDepth: Int
    /// One bit per open container, innermost at bit `depth - 1`: 1 for an object, 0 for an array.
    let stack: UnsafeMutableBufferPointer<UInt64>
    var index = 0
    var depth = 0
    /// Where the last object key read by ``scanKeyAndColon()`` starts (its opening quote) and ends (past its
    /// closing quote), and whether it holds an escape: what a reader needs to know which member it is on.
    var lastKeyStart = 0
    var lastKeyEnd = 0
    var lastKeyHasEscape = false
    /// Whether the last string ``scanString()`` scanned holds U+0000, which only the escape `\u0000` writes: known
    /// from the scan itself, so that a reader refusing such text need not look through it again.
    var lastStringHoldsNUL = false

    init(
        bytes: UnsafeRawBufferPointer, base: UnsafeRawPointer, maxDepth: Int, stack: UnsafeMutableBufferPointer<UInt64>
    ) {
        self.bytes = bytes
        self.base = base
        self.end = bytes.count
        self.maxDepth = maxDepth
        self.stack = stack
    }

    // MARK: Structure

    /// Scans the whole text: one value, then nothing but whitespace.
    mutating func scanText() throws(JSONSyntaxError) {
        try checkByteOrderMark()
        skipWhitespace()
        if index == end {
            throw fail(index, "the body is only whitespace; expected a JSON text")
        }
        try scanValue()
        skipWhitespace()
        if index != end {
            throw fail(index, specialByteReason(at: index) ?? "unexpected text after the JSON value")
        }
    }

    /// Scans one value and everything inside it; the cursor is on the value's first byte and ends just past
    /// its last.
    ///
    /// A single loop with the value position at its top replaces the recursive descent a parser would use:
    /// opening a container pushes a bit and goes back to the top for its first value; closing one pops a bit
    /// and looks for `,` or the next closing bracket, until the depth is back where it started.
    mutating func scanValue() throws(JSONSyntaxError) {
        let base = depth
        nextValue: while true {
            guard index < end else { throw fail(index, "the text ended where a value was expected") }
            switch byte(index) {
            case UInt8(ascii: "\""):
                try scanString()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try scanNumber()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if try enterContainer() { continue nextValue }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                try scanLiteral()
            default:
                throw fail(index, valueReason(at: index))
            }
            // A value just ended: close containers until one goes on with a comma.
            while depth > base {
                if try continueContainer() { continue nextValue }
            }
            return
        }
    }

    /// Opens the array or object whose bracket is under the cursor.
    ///
    /// - Returns: `true` with the cursor on the first value (an object's first key already read), or `false`
    ///   when the container is empty and already closed again.
    mutating func enterContainer() throws(JSONSyntaxError) -> Bool {
        let object = byte(index) == UInt8(ascii: "{")
        try push(object: object)
        index &+= 1
        skipWhitespace()
        if index < end && byte(index) == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            index &+= 1
            depth &-= 1
            return false
        }
        if object { try scanKeyAndColon() }
        return true
    }

    /// Goes on after an element or member of the innermost open container.
    ///
    /// - Returns: `true` after a comma, with the cursor on the next value (an object's next key already read),
    ///   or `false` when the container closed.
    mutating func continueContainer() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        let inObject = topIsObject
        guard index < end else {
            throw fail(
                index,
                inObject
                    ? "the text ended inside an object; expected ',' or '}'"
                    : "the text ended inside an array; expected ',' or ']'")
        }
        let separator = byte(index)
        if separator == UInt8(ascii: ",") {
            let comma = index
            index &+= 1
            skipWhitespace()
            if index < end && byte(index) == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                throw fail(comma, inObject ? "trailing comma before '}'" : "trailing comma before ']'")
            }
            if inObject { try scanKeyAndColon() }
            return true
        }
        if separator == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            index &+= 1
            depth &-= 1
            return false
        }
        throw fail(index, afterElementReason(at: index, inObject: inObject))
    }

    /// Refuses a byte order mark up front with its own message, since otherwise it reads as invalid UTF-8 or
    /// as a stray character, which hides the simple fix (RFC 8259 §8.1: senders must not add one).
    func checkByteOrderMark() throws(JSONSyntaxError) {
        if end >= 3 && byte(0) == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF {
            throw fail(0, "byte order mark (EF BB BF) at the start of the body; JSON texts must not begin with one")
        }
        if end >= 2 && ((byte(0) == 0xFE && byte(1) == 0xFF) || (byte(0) == 0xFF && byte(1) == 0xFE)) {
            throw fail(0, "UTF-16 byte order mark at the start of the body; JSON must be sent as UTF-8 without one")
        }
    }

    /// Reads an object key and the `:` after it; the cursor is on the key's opening quote and ends on the value.
    mutating func scanKeyAndColon() throws(JSONSyntaxError) {
        guard index < end else {
            throw fail(index, "the text ended inside an object; expected a key in double quotes")
        }
        guard byte(index) == UInt8(ascii: "\"") else { throw fail(index, keyReason(at: index)) }
        lastKeyStart = index
        lastKeyHasEscape = try scanString()
        lastKeyEnd = index
        skipWhitespace()
        guard index < end else { throw fail(index, "the text ended after an object key; expected ':'") }
        guard byte(index) == UInt8(ascii: ":") else {
            throw fail(index, specialByteReason(at: index) ?? "missing ':' after the object key")
        }
        index &+= 1
        skipWhitespace()
    }

    mutating func push(object: Bool) throws(JSONSyntaxError) {
        guard depth < maxDepth else { throw fail(index, "nesting deeper than \(maxDepth)") }
        let bit = UInt64(1) &<< UInt64(depth & 63)
        if object {
            stack[depth &>> 6] |= bit
        } else {
            stack[depth &>> 6] &= ~bit
        }
        depth &+= 1
    }

    var topIsObject: Bool {
        let top = depth &- 1
        return stack[top &>> 6] & (UInt64(1) &<< UInt64(top & 63)) != 0
    }

    @inline(__always)
    func byte(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }

    @inline(__always)
    mutating func skipWhitespace() {
        // Bits 9, 10, 13 and 32: tab, LF, CR and space, the only whitespace RFC 8259 allows.
        while index < end {
            let next = byte(index)
            guard next <= 0x20 && (0x1_0000_2600 as UInt64) &>> UInt64(next) & 1 != 0 else { return }
            index &+= 1
        }
    }

    // MARK: Scalars

    /// Reads a string from its opening quote to just past its closing quote.
    /// - Returns: whether the string holds an escape, so a reader knows whether its bytes are its text.
    @discardableResult
    mutating func scanString() throws(JSONSyntaxError) -> Bool {
        var escaped = false
        lastStringHoldsNUL = false
        index &+= 1
        while true {
            // Most string bytes are printable ASCII: test eight at a time and stop at the first that is not.
            if index &+ 8 <= end {
                let special = Self.specialStringBytes(
                    UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                if special == 0 {
                    index &+= 8
                    continue
                }
                index &+= special.trailingZeroBitCount &>> 3
            }
            guard index < end else {
                throw fail(index, "the text ended inside a string; a closing '\"' is missing")
            }
            let next = byte(index)
            if next == UInt8(ascii: "\"") {
                index &+= 1
                return escaped
            } else if next == UInt8(ascii: "\\") {
                escaped = true
                // Escaped quotes in snippets are common: take the one-letter escapes without a call.
                if index &+ 1 < end && Self.isShortEscape(byte(index &+ 1)) {
                    index &+= 2
                } else {
                    try scanEscape()
                }
            } else if next < 0x20 {
                throw fail(index, Self.controlCharacterInStringReason(next))
            } else if next >= 0x80 {
                index &+= try utf8SequenceLength(at: index)
            } else {
                index &+= 1
            }
        }
    }

    /// Marks (with the byte's top bit) each byte of `word` that a string cannot skip: a quote, a backslash, a
    /// control character or a non-ASCII byte. Only the lowest mark is exact, which is the only one used.
    @inline(__always)
    static func specialStringBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        let isQuote = (quote &- ones) & ~quote
        let isBackslash = (backslash &- ones) & ~backslash
        return (control | isQuote | isBackslash | word) & (ones &* 0x80)
    }

    /// Whether `letter` makes a one-letter escape: `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`.
    @inline(__always)
    static func isShortEscape(_ letter: UInt8) -> Bool {
        // One bit per allowed letter: '"' and '/' in the first word, the others in the second (offset 0x40).
        let low: UInt64 = 1 << 0x22 | 1 << 0x2F
        let high: UInt64 =
            1 << (0x5C - 0x40) | 1 << (0x62 - 0x40) | 1 << (0x66 - 0x40) | 1 << (0x6E - 0x40)
            | 1 << (0x72 - 0x40) | 1 << (0x74 - 0x40)
        return letter < 0x80 && (letter < 0x40 ? low : high) &>> UInt64(letter & 0x3F) & 1 != 0
    }

    /// Reads one escape sequence; the cursor is on the backslash. Out of line: `\u` escapes are rare.
    @inline(never)
    mutating func scanEscape() throws(JSONSyntaxError) {
        let start = index
        guard index &+ 1 < end else {
            throw fail(index &+ 1, "the text ended inside a string; a closing '\"' is missing")
        }
        switch byte(index &+ 1) {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index &+= 2
        case UInt8(ascii: "u"):
            let unit = try hexUnit(at: start)
            index &+= 6
            if unit == 0 { lastStringHoldsNUL = true }
            if unit >= 0xDC00 && unit <= 0xDFFF {
                throw fail(start, Self.loneSurrogateReason(unit))
            }
            if unit >= 0xD800 && unit <= 0xDBFF {
                // UTF-16 needs the pair to name one character; half of one cannot be turned into UTF-8.
                guard index &+ 1 < end && byte(index) == UInt8(ascii: "\\") && byte(index &+ 1) == UInt8(ascii: "u"),
                    (0xDC00...0xDFFF).contains(try hexUnit(at: index))
                else { throw fail(start, Self.loneSurrogateReason(unit)) }
                index &+= 6
            }
        default:
            throw fail(start, escapeReason(at: start &+ 1))
        }
    }

    /// The code unit of the `\uXXXX` escape whose backslash is at `offset`.
    func hexUnit(at offset: Int) throws(JSONSyntaxError) -> UInt16 {
        var unit: UInt16 = 0
        for position in offset &+ 2..<offset &+ 6 {
            guard position < end, let digit = Self.hexValue(byte(position)) else {
                let written = printable(from: offset &+ 2, upTo: 4)
                throw fail(
                    offset, #"invalid escape '\u"# + written + #"'; \u must be followed by exactly 4 hex digits"#)
            }
            unit = unit &<< 4 | UInt16(digit)
        }
        return unit
    }

    @inline(__always)
    static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `offset` (Unicode table 3-7), or the reason it
    /// is not one. Overlong forms, encoded surrogates and code points above U+10FFFF are refused because a
    /// decoder would turn them into replacement characters or, worse, into something that compares equal.
    func utf8SequenceLength(at offset: Int) throws(JSONSyntaxError) -> Int {
        let lead = byte(offset)
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let length: Int
        switch lead {
        case 0x00...0x7F:
            return 1
        case 0xC2...0xDF:
            length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF:
            length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3:
            length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default:
            throw fail(offset, utf8LeadReason(lead))
        }
        for position in offset &+ 1..<offset &+ length {
            guard position < end else {
                throw fail(
                    offset, "invalid UTF-8: the text ends inside the sequence starting with \(Self.hexByte(lead))")
            }
            let next = byte(position)
            let bounds = position == offset &+ 1 ? (low, high) : (0x80, 0xBF)
            if next < bounds.0 || next > bounds.1 {
                throw fail(offset, utf8ContinuationReason(lead: lead, at: position, bounds: bounds))
            }
        }
        return length
    }

    /// Reads a number; the cursor is on its `-` or first digit. Follows RFC 8259 §6 exactly:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func scanNumber() throws(JSONSyntaxError) {
        if byte(index) == UInt8(ascii: "-") {
            index &+= 1
            guard index < end && isDigit(byte(index)) else { throw fail(index, minusReason(at: index)) }
        }
        if byte(index) == UInt8(ascii: "0") {
            index &+= 1
            if index < end {
                let next = byte(index)
                if isDigit(next) { throw fail(index &- 1, "number with a leading zero") }
                if next == UInt8(ascii: "x") || next == UInt8(ascii: "X") {
                    throw fail(index &- 1, "hexadecimal number; JSON numbers are decimal")
                }
            }
        } else {
            skipDigits()
        }
        var hasFraction = false
        if index < end && byte(index) == UInt8(ascii: ".") {
            index &+= 1
            guard index < end && isDigit(byte(index)) else {
                throw fail(index, "number with no digit after the decimal point")
            }
            skipDigits()
            hasFraction = true
        }
        var hasExponent = false
        if index < end && byte(index) | 0x20 == UInt8(ascii: "e") {
            index &+= 1
            if index < end && (byte(index) == UInt8(ascii: "+") || byte(index) == UInt8(ascii: "-")) {
                index &+= 1
            }
            guard index < end && isDigit(byte(index)) else { throw fail(index, "exponent with no digits") }
            skipDigits()
            hasExponent = true
        }
        // Something glued to a number is a malformed number, not a missing comma: say so.
        if index < end {
            let next = byte(index)
            if next == UInt8(ascii: ".") || next == UInt8(ascii: "+") || next == UInt8(ascii: "-")
                || Self.isWordByte(next)
            {
                throw fail(index, numberTailReason(next, hasFraction: hasFraction, hasExponent: hasExponent))
            }
        }
    }

    @inline(__always)
    func isDigit(_ next: UInt8) -> Bool { next &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    mutating func skipDigits() {
        while index < end && isDigit(byte(index)) { index &+= 1 }
    }

    /// Reads `true`, `false` or `null`; the cursor is on its first letter.
    mutating func scanLiteral() throws(JSONSyntaxError) {
        let literal: StaticString =
            switch byte(index) {
            case UInt8(ascii: "t"): "true"
            case UInt8(ascii: "f"): "false"
            default: "null"
            }
        let length = literal.utf8CodeUnitCount
        var matches = index &+ length <= end
        if matches {
            for position in 0..<length where byte(index &+ position) != literal.utf8Start[position] {
                matches = false
                break
            }
        }
        // `nullx` or `true1` is a misspelling, not a literal followed by a missing comma.
        if matches && (index &+ length == end || !Self.isWordByte(byte(index &+ length))) {
            index &+= length
            return
        }
        throw fail(index, wordReason(at: index))
    }

    @inline(__always)
    static func isWordByte(_ next: UInt8) -> Bool {
        let letter = next | 0x20
        return (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z")) || next &- UInt8(ascii: "0") < 10
            || next == UInt8(ascii: "_") || next == UInt8(ascii: "$")
    }

    // MARK: Errors

    /// Builds the error for `offset`, kept out of line so that valid text never pays for line counting.
    @inline(never)
    func fail(_ offset: Int, _ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, reason: reason, in: bytes)
    }

    /// Why the byte at `offset` cannot start a value.
    @inline(never)
    func valueReason(at offset: Int) -> String {
        if let special = specialByteReason(at: offset) { return special }
        let next = byte(offset)
        switch next {
        case UInt8(ascii: "'"):
            return "single-quoted string; JSON strings must be in double quotes"
        case UInt8(ascii: "+"):
            return "number with a leading '+'; JSON numbers have no plus sign"
        case UInt8(ascii: "."):
            return "number starting with '.'; write a 0 before the decimal point"
        case _ where Self.isWordByte(next):
            return wordReason(at: offset)
        default:
            return "expected a value, found \(Self.describe(next))"
        }
    }

    /// Why the byte at `offset` cannot start an object key.
    @inline(never)
    func keyReason(at offset: Int) -> String {
        if let special = specialByteReason(at: offset) { return special }
        let next = byte(offset)
        if next == UInt8(ascii: "'") { return "single-quoted key; JSON keys must be in double quotes" }
        if Self.isWordByte(next) {
            return "unquoted key '\(word(at: offset))'; JSON keys must be in double quotes"
        }
        return "expected a key in double quotes, found \(Self.describe(next))"
    }

    /// Why the byte at `offset` cannot follow an array element or an object member.
    @inline(never)
    func afterElementReason(at offset: Int, inObject: Bool) -> String {
        if let special = specialByteReason(at: offset) { return special }
        let next = byte(offset)
        let startsValue =
            next == UInt8(ascii: "\"") || next == UInt8(ascii: "'") || next == UInt8(ascii: "{")
            || next == UInt8(ascii: "[") || next == UInt8(ascii: "-") || Self.isWordByte(next)
        if inObject {
            if startsValue { return "missing ',' between object members" }
            if next == UInt8(ascii: "]") { return "found ']' where the object needs '}'" }
            return "expected ',' or '}' after an object member, found \(Self.describe(next))"
        }
        if startsValue { return "missing ',' between array elements" }
        if next == UInt8(ascii: "}") { return "found '}' where the array needs ']'" }
        return "expected ',' or ']' after an array element, found \(Self.describe(next))"
    }

    /// Names the problems a byte has wherever it appears outside a string: comments, whitespace that JSON does
    /// not allow, control characters, invalid UTF-8 and other non-ASCII characters. `nil` for other ASCII, whose
    /// reason depends on where it is.
    @inline(never)
    func specialByteReason(at offset: Int) -> String? {
        let next = byte(offset)
        switch next {
        case UInt8(ascii: "/"):
            guard offset &+ 1 < end, byte(offset &+ 1) == UInt8(ascii: "/") || byte(offset &+ 1) == UInt8(ascii: "*")
            else { return nil }
            return "comment; JSON has no comments"
        case 0x0C:
            return "form feed U+000C is not JSON whitespace; use space, tab, LF or CR"
        case 0x0B:
            return "vertical tab U+000B is not JSON whitespace; use space, tab, LF or CR"
        case 0x00..<0x20, 0x7F:
            return "control character U+\(Self.hex(UInt32(next), digits: 4)) outside a string"
        case 0x80...:
            let length: Int
            do {
                length = try utf8SequenceLength(at: offset)
            } catch {
                return error.reason
            }
            var scalar = UInt32(next) & (0xFF &>> UInt32(length &+ 1))
            for position in offset &+ 1..<offset &+ length {
                scalar = scalar &<< 6 | UInt32(byte(position) & 0x3F)
            }
            let name = "U+\(Self.hex(scalar, digits: 4))"
            switch scalar {
            case 0xFEFF:
                return "byte order mark \(name) inside the text; remove it"
            case 0xA0:
                return "no-break space \(name) is not JSON whitespace; use space, tab, LF or CR"
            case 0x85, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
                return "space character \(name) is not JSON whitespace; use space, tab, LF or CR"
            default:
                return "unexpected character \(name) outside a string"
            }
        default:
            return nil
        }
    }

    /// Why the word at `offset` (a run of letters, digits, `_` and `$`) is not a value.
    @inline(never)
    func wordReason(at offset: Int) -> String {
        let word = word(at: offset)
        let lowered = word.lowercased()
        if lowered == "nan" { return "NaN is not a JSON value; send null or a string" }
        if lowered == "infinity" || lowered == "inf" { return "\(word) is not a JSON number; send null or a string" }
        for literal in ["true", "false", "null"] {
            if lowered == literal { return "'\(word)' is not a JSON literal; write it in lowercase: \(literal)" }
            let looksAlike =
                literal.hasPrefix(lowered) || lowered.hasPrefix(literal)
                || (lowered.count == literal.count && lowered.sorted() == literal.sorted())
            if lowered.first == literal.first && looksAlike {
                return "misspelled literal '\(word)'; JSON literals are true, false and null"
            }
        }
        if lowered == "nil" || lowered == "none" || lowered == "undefined" {
            return "'\(word)' is not a JSON literal; write null"
        }
        return "unquoted string '\(word)'; JSON strings must be in double quotes"
    }

    @inline(never)
    func minusReason(at offset: Int) -> String {
        guard offset < end else { return "expected a digit after '-'" }
        if wordAt(offset).lowercased().hasPrefix("inf") {
            return "-Infinity is not a JSON number; send null or a string"
        }
        return "expected a digit after '-', found \(Self.describe(byte(offset)))"
    }

    @inline(never)
    func numberTailReason(_ next: UInt8, hasFraction: Bool, hasExponent: Bool) -> String {
        if next == UInt8(ascii: ".") {
            return hasExponent ? "decimal point in an exponent" : "number with more than one decimal point"
        }
        if next | 0x20 == UInt8(ascii: "e") && hasExponent { return "number with more than one exponent" }
        return "unexpected \(Self.describe(next)) after a number"
    }

    @inline(never)
    func escapeReason(at offset: Int) -> String {
        guard offset < end else { return "the text ended inside a string; a closing '\"' is missing" }
        let escaped = byte(offset)
        let allowed = #"JSON escapes are \" \\ \/ \b \f \n \r \t and \uXXXX"#
        if escaped > 0x20 && escaped < 0x7F {
            return #"invalid escape '\\#(Character(Unicode.Scalar(escaped)))'; "# + allowed
        }
        return #"invalid escape: '\' followed by "# + Self.describe(escaped) + "; " + allowed
    }

    @inline(never)
    func utf8LeadReason(_ lead: UInt8) -> String {
        switch lead {
        case 0x80...0xBF:
            "invalid UTF-8: continuation byte \(Self.hexByte(lead)) without a lead byte"
        case 0xC0, 0xC1:
            "invalid UTF-8: overlong encoding starting with \(Self.hexByte(lead))"
        default:
            "invalid UTF-8 byte \(Self.hexByte(lead))"
        }
    }

    @inline(never)
    func utf8ContinuationReason(lead: UInt8, at position: Int, bounds: (UInt8, UInt8)) -> String {
        let next = byte(position)
        let pair = "\(Self.hexByte(lead)) \(Self.hexByte(next))"
        if next >= 0x80 && next <= 0xBF {
            // In the continuation range but outside the lead's bounds: table 3-7's special second bytes.
            switch lead {
            case 0xE0, 0xF0: return "invalid UTF-8: overlong encoding \(pair)"
            case 0xED: return "invalid UTF-8: encoded surrogate \(pair); U+D800 to U+DFFF are not characters"
            default: return "invalid UTF-8: code point above U+10FFFF (\(pair))"
            }
        }
        return "invalid UTF-8: truncated sequence, \(Self.hexByte(lead)) is followed by \(Self.hexByte(next))"
            + " instead of a continuation byte"
    }

    static func loneSurrogateReason(_ unit: UInt16) -> String {
        let name = #"lone surrogate \u"# + hex(unit, digits: 4)
        return unit >= 0xDC00
            ? name + "; a low surrogate must follow a high one"
            : name + #"; a high surrogate must be followed by a low one, \uDC00 to \uDFFF"#
    }

    static func controlCharacterInStringReason(_ control: UInt8) -> String {
        let escape =
            switch control {
            case 0x08: #"\b"#
            case 0x09: #"\t"#
            case 0x0A: #"\n"#
            case 0x0C: #"\f"#
            case 0x0D: #"\r"#
            default: #"\u"# + hex(UInt32(control), digits: 4)
            }
        return "control character U+\(hex(UInt32(control), digits: 4)) inside a string; escape it as \(escape)"
    }

    /// The word at `offset`, cut short so that a hostile body cannot make the message huge.
    func word(at offset: Int) -> String {
        let word = wordAt(offset)
        return word.count > 32 ? String(word.prefix(32)) + "…" : word
    }

    func wordAt(_ offset: Int) -> String {
        var stop = offset
        while stop < end && stop &- offset <= 32 && Self.isWordByte(byte(stop)) { stop &+= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<stop]), as: UTF8.self)
    }

    /// Up to `count` printable ASCII characters from `offset`, to quote a bad escape without quoting garbage.
    func printable(from offset: Int, upTo count: Int) -> String {
        var stop = offset
        while stop < end && stop &- offset < count && byte(stop) > 0x20 && byte(stop) < 0x7F
            && byte(stop) != UInt8(ascii: "\"")
        {
            stop &+= 1
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<stop]), as: UTF8.self)
    }

    static func describe(_ next: UInt8) -> String {
        switch next {
        case 0x21...0x7E: "'\(Character(Unicode.Scalar(next)))'"
        case 0x80...: "byte \(hexByte(next))"
        default: "U+\(hex(UInt32(next), digits: 4))"
        }
    }

    static func hexByte(_ value: UInt8) -> String { "0x" + hex(UInt32(value), digits: 2) }

    static func hex(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

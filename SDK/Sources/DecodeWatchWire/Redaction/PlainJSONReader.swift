import Foundation

/// Reads the JSON snippets mostly are (objects, arrays, strings without escapes, whole numbers, `true`, `false`,
/// `null`) into the tree `JSONSerialization` makes of the same text, without its parser: on Linux that parser built
/// an intermediate tree and took a third of redacting a snippet, now done for each group of each batch.
///
/// Anything else (an escape, a fraction or an exponent, `-0`, a number of more than 18 digits, a key met twice,
/// nesting deeper than ``maxDepth``, text that is not JSON) makes it return `nil`, and the snippet is read by
/// `JSONSerialization` as before, so a snippet is redacted to the same text whichever reads it.
@_spi(WireInternals) public struct PlainJSONReader {
    /// The deepest nesting read here; deeper snippets go to `JSONSerialization`.
    static let maxDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    /// The tree of a snippet, or `nil` when it is not plain JSON as described above.
    @_spi(WireInternals) public static func tree(of text: String) -> Any? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = PlainJSONReader(bytes: bytes)
            guard let value = reader.value() else { return nil }
            reader.skipWhitespace()
            return reader.index == bytes.count ? value : nil
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func value() -> Any? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true", NSNumber(value: true))
        case UInt8(ascii: "f"): return literal("false", NSNumber(value: false))
        case UInt8(ascii: "n"): return literal("null", NSNull())
        default: return number()
        }
    }

    private mutating func object() -> Any? {
        guard depth < Self.maxDepth else { return nil }
        depth += 1
        defer { depth -= 1 }
        index += 1
        var members: [String: Any] = [:]
        if next(is: "}") { return members }
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string(), next(is: ":"),
                let value = value(), members.updateValue(value, forKey: key) == nil
            else { return nil }
        } while next(is: ",")
        return next(is: "}") ? members : nil
    }

    private mutating func array() -> Any? {
        guard depth < Self.maxDepth else { return nil }
        depth += 1
        defer { depth -= 1 }
        index += 1
        var elements: [Any] = []
        if next(is: "]") { return elements }
        repeat {
            guard let element = value() else { return nil }
            elements.append(element)
        } while next(is: ",")
        return next(is: "]") ? elements : nil
    }

    /// A string without escapes or control characters, from its opening quote.
    private mutating func string() -> String? {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    /// A whole number of at most 18 digits, which an `Int` holds and writes back as it was written.
    private mutating func number() -> Any? {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digits = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        let count = index - digits
        guard count > 0, count <= 18, bytes[digits] != UInt8(ascii: "0") || count == 1,
            index == bytes.count || !".eE".utf8.contains(bytes[index]),
            !(digits > start && count == 1 && bytes[digits] == UInt8(ascii: "0")),
            let value = Int(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        else { return nil }
        return NSNumber(value: value)
    }

    private mutating func literal(_ word: StaticString, _ value: Any) -> Any? {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count,
            UnsafeBufferPointer(rebasing: bytes[index..<index + count]).elementsEqual(
                UnsafeBufferPointer(start: word.utf8Start, count: count))
        else { return nil }
        index += count
        return value
    }

    /// Skips whitespace, then steps over `character` when it comes next.
    /// - Returns: whether it came.
    private mutating func next(is character: Unicode.Scalar) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
}

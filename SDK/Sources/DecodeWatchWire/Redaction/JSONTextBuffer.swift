/// JSON text written into bytes until a limit is passed.
///
/// Shared by the SDK's snippet writer and the collector's redacting writer: both write a tree as
/// compact JSON and stop as soon as the limit is passed, so the cost is bounded by the limit, not by
/// the size of the value.
@_spi(WireInternals) public struct JSONTextBuffer {
    /// The most UTF-8 bytes of ``result``.
    @_spi(WireInternals) public let limit: Int
    private var bytes: [UInt8] = []

    /// Creates an empty buffer.
    /// - Parameter limit: the most UTF-8 bytes of ``result``.
    @_spi(WireInternals) public init(limit: Int) {
        self.limit = max(0, limit)
        bytes.reserveCapacity(min(self.limit, 4096) + 16)
    }

    /// Whether the limit is passed; writers stop there.
    @_spi(WireInternals) public var full: Bool { bytes.count > limit }

    /// How many more bytes fit under the limit.
    @_spi(WireInternals) public var room: Int { max(0, limit - bytes.count) }

    /// The text written, cut to ``limit`` bytes between Unicode scalars.
    @_spi(WireInternals) public var result: String {
        guard bytes.count > limit else { return String(decoding: bytes, as: UTF8.self) }
        // Cut on a UTF-8 boundary: drop continuation bytes (10xxxxxx) at the cut.
        var end = limit
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// Appends JSON text as it is: a literal, a number, punctuation.
    @_spi(WireInternals) public mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends one ASCII character of punctuation.
    @_spi(WireInternals) public mutating func append(ascii: Unicode.Scalar) {
        bytes.append(UInt8(ascii: ascii))
    }

    /// Appends an array, element by element, until the limit is passed.
    /// - Parameters:
    ///   - elements: the array's elements.
    ///   - writeElement: writes one element into the buffer.
    @_spi(WireInternals) public mutating func writeArray<Elements: Collection>(
        _ elements: Elements, _ writeElement: (inout JSONTextBuffer, Elements.Element) -> Void
    ) {
        append(ascii: "[")
        for (offset, element) in elements.enumerated() {
            if full { return }
            if offset > 0 { append(ascii: ",") }
            writeElement(&self, element)
        }
        append(ascii: "]")
    }

    /// Appends an object, member by member in the order of `keys`, until the limit is passed.
    /// - Parameters:
    ///   - keys: the object's keys, sorted by the caller so that equal values give equal text.
    ///   - writeValue: writes the value of one key into the buffer.
    @_spi(WireInternals) public mutating func writeObject(keys: [String], _ writeValue: (inout JSONTextBuffer, String) -> Void) {
        append(ascii: "{")
        for (offset, key) in keys.enumerated() {
            if full { return }
            if offset > 0 { append(ascii: ",") }
            writeString(key)
            append(ascii: ":")
            writeValue(&self, key)
        }
        append(ascii: "}")
    }

    /// Appends a JSON string, escaping what RFC 8259 requires; `/` is left as it is.
    @_spi(WireInternals) public mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escaping: copy them at once.
        if text.utf8.count <= limit - bytes.count + 1,
            !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C })
        {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: bytes.append(byte)
            }
            if full { return }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

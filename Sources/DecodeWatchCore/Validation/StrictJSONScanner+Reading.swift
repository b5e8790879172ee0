import Foundation

/// Typed reads on top of the strict scanner, so a decoder can take values out of the text in the same pass that
/// checks it: every read goes through the scanner's own checks and fails with its messages.
extension StrictJSONScanner {
    /// What the value under the cursor is, judged from its first byte. The read that follows checks the rest.
    enum ValueKind {
        case string, number, object, array, null
        /// `true`, `false`, or a byte that starts no value (skipping it throws the syntax error).
        case other
    }

    /// The kind of the value under the cursor.
    var valueKind: ValueKind {
        guard index < end else { return .other }
        switch byte(index) {
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "n"): return .null
        default: return .other
        }
    }

    /// Reads the number under the cursor (``valueKind`` is `.number`).
    ///
    /// - Returns: its value when it is a whole number that fits an `Int`, as `1`, `1.0`, `1e3` and `-0` are; `nil`
    ///   for `1.5`, `1e30` and the like. This is what Foundation's `JSONDecoder` accepts for an `Int`.
    mutating func readInt() throws(JSONSyntaxError) -> Int? {
        let start = index
        try scanNumber()
        var position = start
        let negative = byte(position) == UInt8(ascii: "-")
        if negative { position &+= 1 }
        // Plain digits, the common case, are added up exactly; a fraction or an exponent goes through `Double`.
        var magnitude: UInt64 = 0
        var overflow = false
        while position < index, isDigit(byte(position)) {
            let (times10, over1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, over2) = times10.addingReportingOverflow(UInt64(byte(position) &- UInt8(ascii: "0")))
            magnitude = sum
            overflow = overflow || over1 || over2
            position &+= 1
        }
        if position == index {
            guard !overflow else { return nil }
            return negative ? Int(exactly: -Int128(magnitude)) : Int(exactly: magnitude)
        }
        let written = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return Double(written).flatMap { Int(exactly: $0) }
    }

    /// Whether the last key read by ``scanKeyAndColon()`` is `name`, escapes resolved.
    ///
    /// Inlined, so that each call compares the key's length with a constant first: a report's reader asks about
    /// up to nine names for every member.
    @inline(__always)
    func lastKeyIs(_ name: StaticString) -> Bool {
        guard !lastKeyHasEscape else { return lastEscapedKeyIs(name) }
        guard lastKeyEnd &- lastKeyStart &- 2 == name.utf8CodeUnitCount else { return false }
        return memcmp(base + (lastKeyStart &+ 1), name.utf8Start, name.utf8CodeUnitCount) == 0
    }

    private func lastEscapedKeyIs(_ name: StaticString) -> Bool {
        text(from: lastKeyStart &+ 1, to: lastKeyEnd &- 1, escaped: true) == name.description
    }

    /// The text of a scanned string's contents, from `start` up to `stop` (its quotes excluded).
    func text(from start: Int, to stop: Int, escaped: Bool) -> String {
        Self.string(UnsafeRawBufferPointer(rebasing: bytes[start..<stop]), escaped: escaped)
    }

    /// The text of the already checked string contents `raw`, resolving escapes when it has any.
    static func string(_ raw: UnsafeRawBufferPointer, escaped: Bool) -> String {
        guard escaped else { return String(decoding: raw, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: raw.count) { buffer in
            unescape(raw, into: buffer)
        }
    }

    /// Writes the UTF-8 of the already checked string contents `raw` into `buffer`, resolving escapes, and returns
    /// how many bytes it wrote. An escape never takes fewer bytes than the UTF-8 it stands for, so `raw.count`
    /// bytes are always enough.
    static func unescape(_ raw: UnsafeRawBufferPointer, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var read = 0
        var written = 0
        func hex(_ at: Int) -> UInt32 {
            var unit: UInt32 = 0
            for position in at..<at &+ 4 { unit = unit &<< 4 | UInt32(hexValue(raw[position]) ?? 0) }
            return unit
        }
        func put(_ byte: UInt32) {
            buffer[written] = UInt8(truncatingIfNeeded: byte)
            written &+= 1
        }
        while read < raw.count {
            let next = raw[read]
            guard next == UInt8(ascii: "\\") else {
                put(UInt32(next))
                read &+= 1
                continue
            }
            let letter = raw[read &+ 1]
            read &+= 2
            switch letter {
            case UInt8(ascii: "b"): put(0x08)
            case UInt8(ascii: "f"): put(0x0C)
            case UInt8(ascii: "n"): put(0x0A)
            case UInt8(ascii: "r"): put(0x0D)
            case UInt8(ascii: "t"): put(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex(read)
                read &+= 4
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    // The scanner checked that a low surrogate follows.
                    scalar = 0x10000 &+ (scalar &- 0xD800) &<< 10 &+ (hex(read &+ 2) &- 0xDC00)
                    read &+= 6
                }
                for unit in UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")! { put(UInt32(unit)) }
            default: put(UInt32(letter))
            }
        }
        return written
    }
}

/// Renders a coding path as a wildcard JSONPath (docs/wire-format.md#path).
///
/// `["results", 1, "title"]` becomes `$.results[*].title`; keys that are ids become `[*]`, so a
/// dictionary keyed by user id groups as one field.
public enum PathRenderer {
    /// Renders a path.
    /// - Parameter path: elements from the payload root to the failing value.
    /// - Returns: an RFC 9535 JSONPath with `[*]` wildcards.
    public static func render(_ path: [PathElement]) -> String {
        // Written straight into one string's storage, sized for the longest rendering (every key quoted and
        // every byte escaped): one allocation per path, where appending piece by piece grew it.
        let bound = path.reduce(1) { bound, element in
            switch element {
            case .index: bound + 3
            case .key(let key): bound + 4 + 2 * key.utf8.count
            }
        }
        return String(unsafeUninitializedCapacity: bound) { buffer in
            var end = 0
            put("$", into: buffer, at: &end)
            for element in path {
                switch element {
                case .index:
                    put("[*]", into: buffer, at: &end)
                case .key(let key):
                    // A Swift string keeps its UTF-8 in one piece; a bridged one is copied out first.
                    if key.utf8.withContiguousStorageIfAvailable({ put(key: $0, into: buffer, at: &end) }) == nil {
                        Array(key.utf8).withUnsafeBufferPointer { put(key: $0, into: buffer, at: &end) }
                    }
                }
            }
            return end
        }
    }

    /// Writes one key: `[*]` for an id, `.key` when it is a member name, else `['key']`.
    private static func put(
        key: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>, at end: inout Int
    ) {
        if EndpointNormalizer.isIdentifierKey(key) {
            put("[*]", into: buffer, at: &end)
        } else if isMemberName(key) {
            put(".", into: buffer, at: &end)
            for byte in key { put(byte, into: buffer, at: &end) }
        } else {
            // RFC 9535 escapes code points: a quote or backslash is escaped even when a combining mark follows it
            // (UTF-8 never repeats an ASCII byte inside another character).
            put("['", into: buffer, at: &end)
            for byte in key {
                if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "'") {
                    put(UInt8(ascii: "\\"), into: buffer, at: &end)
                }
                put(byte, into: buffer, at: &end)
            }
            put("']", into: buffer, at: &end)
        }
    }

    private static func put(_ byte: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>, at end: inout Int) {
        buffer[end] = byte
        end += 1
    }

    private static func put(_ text: StaticString, into buffer: UnsafeMutableBufferPointer<UInt8>, at end: inout Int) {
        for offset in 0..<text.utf8CodeUnitCount { put(text.utf8Start[offset], into: buffer, at: &end) }
    }

    /// Whether a key matches `^[A-Za-z_][A-Za-z0-9_]*$` and can be written in dot notation.
    private static func isMemberName(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = key.first, isLetter(first) || first == 0x5F else { return false }
        return key.allSatisfy { isLetter($0) || $0 == 0x5F || ($0 >= 0x30 && $0 <= 0x39) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}

/// Renders a coding path as a wildcard JSONPath (docs/wire-format.md#path).
///
/// `["results", 1, "title"]` becomes `$.results[*].title`; keys that are ids become `[*]`, so a
/// dictionary keyed by user id groups as one field.
public enum PathRenderer {
    /// Renders a path.
    /// - Parameter path: elements from the payload root to the failing value.
    /// - Returns: an RFC 9535 JSONPath with `[*]` wildcards.
    public static func render(_ path: [PathElement]) -> String {
        var bytes: [UInt8] = []
        render(path, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the UTF-8 of a path's rendering (``render(_:)``) into `bytes`, in place of what it held: a caller that
    /// renders many paths reuses one buffer and makes a string only of a rendering it has not met.
    @_spi(WireInternals)
    public static func render(_ path: [PathElement], into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(UInt8(ascii: "$"))
        for element in path {
            switch element {
            case .index:
                bytes.append(contentsOf: "[*]".utf8)
            case .key(let key):
                // A Swift string keeps its UTF-8 in one piece; a bridged one is copied out first.
                if key.utf8.withContiguousStorageIfAvailable({ append(key: $0, to: &bytes) }) == nil {
                    Array(key.utf8).withUnsafeBufferPointer { append(key: $0, to: &bytes) }
                }
            }
        }
    }

    /// Appends one key: `[*]` for an id, `.key` when it is a member name, else `['key']`.
    private static func append(key: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        if EndpointNormalizer.isIdentifierKey(key) {
            bytes.append(contentsOf: "[*]".utf8)
        } else if isMemberName(key) {
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: key)
        } else {
            // RFC 9535 escapes code points: a quote or backslash is escaped even when a combining mark follows it
            // (UTF-8 never repeats an ASCII byte inside another character).
            bytes.append(contentsOf: "['".utf8)
            for byte in key {
                if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "'") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(contentsOf: "']".utf8)
        }
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

import Foundation

/// A string compared, hashed and ordered by its UTF-8 bytes, as both databases compare text.
///
/// Swift's `String` compares by canonical equivalence: `"é"` (U+00E9) equals `"e\u{301}"` (e and a combining
/// acute). The stores do not: SQLite's and PostgreSQL's text equality is byte for byte, and a group's id hashes
/// the bytes. A table of the collector keyed by `String` would add two keys that the database keeps apart into
/// one, and count the second under the first one's spelling (or look it up under an id it is not stored under).
/// Keys of values that end up in a row are made of this instead.
public struct ExactText: Hashable, Comparable, Sendable {
    /// The string, as sent.
    public var text: String

    /// Wraps a string.
    public init(_ text: String) { self.text = text }

    public static func == (left: ExactText, right: ExactText) -> Bool {
        // Compared as two blocks of memory: `elementsEqual` over the UTF-8 views goes a byte at a time, and tables
        // keyed by endpoints and groups compare keys for every report.
        guard left.text.utf8.count == right.text.utf8.count else { return false }
        return compare(left.text, right.text) { left, right in
            left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
        }
    }

    /// Byte order, which for UTF-8 is code point order: the order `COLLATE "C"` and SQLite's `BINARY` sort in.
    public static func < (left: ExactText, right: ExactText) -> Bool {
        compare(left.text, right.text) { left, right in
            let common = min(left.count, right.count)
            let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
            return order != 0 ? order < 0 : left.count < right.count
        }
    }

    /// Runs `body` on the UTF-8 bytes of both texts, in place where a text keeps them together (a native string
    /// does), from a copy otherwise.
    private static func compare(
        _ left: String, _ right: String,
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        let outcome = left.utf8.withContiguousStorageIfAvailable { left in
            right.utf8.withContiguousStorageIfAvailable { right in body(left, right) }
        }
        if let outcome = outcome ?? nil { return outcome }
        return Array(left.utf8).withUnsafeBufferPointer { left in
            Array(right.utf8).withUnsafeBufferPointer { right in body(left, right) }
        }
    }

    public func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

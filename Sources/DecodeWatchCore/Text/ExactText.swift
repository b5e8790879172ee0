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

    public static func == (left: ExactText, right: ExactText) -> Bool { left.text.utf8.elementsEqual(right.text.utf8) }

    /// Byte order, which for UTF-8 is code point order: the order `COLLATE "C"` and SQLite's `BINARY` sort in.
    public static func < (left: ExactText, right: ExactText) -> Bool {
        left.text.utf8.lexicographicallyPrecedes(right.text.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

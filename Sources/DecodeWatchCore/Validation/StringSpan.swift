/// Where a JSON string's contents are in a text (its quotes excluded), and whether they hold an escape: a string
/// checked but not yet made.
struct StringSpan: Equatable {
    /// The byte offsets of the contents.
    var range: Range<Int>
    /// Whether the contents hold an escape.
    var escaped: Bool

    /// The string, from the text the span was read from.
    func string(in text: UnsafeRawBufferPointer) -> String {
        StrictJSONScanner.string(UnsafeRawBufferPointer(rebasing: text[range]), escaped: escaped)
    }
}

import Foundation

/// The values a batch's decoder read lately, by the text they were read from, so that text a batch repeats becomes
/// one shared value rather than a new one per report: strings (an endpoint, a message, a key of a path) and paths.
///
/// A batch repeats most of its text: the same failure recurs across the elements of a list. Making a string longer
/// than 15 bytes or an array allocates it, and a string's escapes are resolved and its UTF-8 checked again; freeing
/// the batch frees it again. Sharing one costs a comparison of its bytes. The table is small and fixed: a value that
/// is not in it is made as before and replaces the one in its slot, so no input makes it grow or slow down.
///
/// Slots point into the text being read: a table must not outlive the bytes it was given.
struct RecentValues<Value> {
    /// Slots, each the hash of its text (``hash(_:)``), where that text is, and the value read from it.
    private var slots: [(hash: UInt64, raw: UnsafeRawBufferPointer, value: Value?)]
    private let lengths: ClosedRange<Int>
    private static var slotCount: Int { 64 }

    /// A table for values read from texts of `lengths` bytes; others are never shared.
    init(lengths: ClosedRange<Int>) {
        self.lengths = lengths
        slots = Array(repeating: (0, UnsafeRawBufferPointer(start: nil, count: 0), nil), count: Self.slotCount)
    }

    /// The value last read from the same bytes as `raw`, if the table holds one.
    func value(readFrom raw: UnsafeRawBufferPointer) -> Value? {
        guard lengths.contains(raw.count) else { return nil }
        let hash = Self.hash(raw)
        let held = slots[Self.slot(hash)]
        guard held.hash == hash, held.raw.count == raw.count,
            raw.isEmpty || memcmp(held.raw.baseAddress!, raw.baseAddress!, raw.count) == 0
        else { return nil }
        return held.value
    }

    /// Keeps `value` as the one read from `raw`, in place of the value in its slot.
    mutating func remember(_ value: Value, readFrom raw: UnsafeRawBufferPointer) {
        guard lengths.contains(raw.count) else { return }
        let hash = Self.hash(raw)
        slots[Self.slot(hash)] = (hash, raw, value)
    }

    private static func slot(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash) & (slotCount - 1) }

    /// From 16 bytes, a hash of the length and of the first, middle and last eight bytes: constant time, and
    /// endpoints or messages that differ in an id or a name mostly differ there. Shorter text is hashed whole.
    /// Texts that hash alike are told apart by comparing their bytes.
    private static func hash(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        guard raw.count >= 16 else { return ByteHash.of(raw, seed: 0) }
        let first = raw.loadUnaligned(as: UInt64.self)
        let middle = raw.loadUnaligned(fromByteOffset: (raw.count - 8) / 2, as: UInt64.self)
        let last = raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)
        return ByteHash.mix(ByteHash.mix(ByteHash.mix(UInt64(raw.count) &* 0x9E37_79B9_7F4A_7C15, first), middle), last)
    }
}

extension RecentValues<String> {
    /// Strings of at most 15 bytes are stored inline and never allocate: sharing them gains nothing. Longer strings
    /// are rarely repeated whole, and comparing them costs more.
    static func strings() -> Self { Self(lengths: 16...256) }

    /// The string of a JSON string's contents `raw`, as `make` makes it: the same string as last time when the
    /// table holds one made from the same bytes. Equal contents, escapes included, always make equal strings.
    mutating func string(_ raw: UnsafeRawBufferPointer, make: () -> String) -> String {
        if let held = value(readFrom: raw) { return held }
        let string = make()
        remember(string, readFrom: raw)
        return string
    }
}

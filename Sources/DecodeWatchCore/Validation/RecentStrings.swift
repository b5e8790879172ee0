import Foundation

/// The strings a batch's decoder made lately, so that text a batch repeats (an endpoint, a message, a snippet, a
/// key of a path) becomes one shared string rather than a new one per report.
///
/// A batch repeats most of its strings: the same failure recurs across the elements of a list. Making a string
/// longer than 15 bytes allocates it, resolves its escapes and checks its UTF-8 again, and freeing the batch frees
/// it again; sharing one costs a comparison of its bytes. The table is small and fixed: a string that is not in it
/// is made as before and replaces the one in its slot, so no input makes it grow or slow down.
///
/// Slots point into the text being read: a table must not outlive the bytes it was given.
struct RecentStrings {
    /// Slots, each the hash of its string's contents in the text (``hash(_:)``), where they are, and the string.
    private var slots: [(hash: UInt64, raw: UnsafeRawBufferPointer, string: String)]

    /// Strings of at most 15 bytes are stored inline and never allocate: sharing them gains nothing.
    static let shortest = 16
    /// Longer strings are rarely repeated whole, and comparing them costs more.
    static let longest = 256
    private static let slotCount = 64

    init() {
        slots = Array(repeating: (0, UnsafeRawBufferPointer(start: nil, count: 0), ""), count: Self.slotCount)
    }

    /// The string of a JSON string's contents `raw`, as `make` makes it: the same string as last time when the
    /// table holds one made from the same bytes. Equal contents, escapes included, always make equal strings.
    mutating func string(_ raw: UnsafeRawBufferPointer, make: () -> String) -> String {
        guard raw.count >= Self.shortest, raw.count <= Self.longest else { return make() }
        let hash = Self.hash(raw)
        let slot = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
        let held = slots[slot]
        if held.hash == hash, held.raw.count == raw.count,
            memcmp(held.raw.baseAddress!, raw.baseAddress!, raw.count) == 0
        {
            return held.string
        }
        let string = make()
        slots[slot] = (hash, raw, string)
        return string
    }

    /// A hash of the length and of the first, middle and last eight bytes (there are at least 16): constant time,
    /// and endpoints or messages that differ in an id or a name mostly differ there. Contents that hash alike are
    /// told apart by comparing their bytes.
    private static func hash(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            return mixed ^ (mixed >> 31)
        }
        let first = raw.loadUnaligned(as: UInt64.self)
        let middle = raw.loadUnaligned(fromByteOffset: (raw.count - 8) / 2, as: UInt64.self)
        let last = raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)
        return mix(mix(mix(UInt64(raw.count) &* 0x9E37_79B9_7F4A_7C15, first), middle), last)
    }
}

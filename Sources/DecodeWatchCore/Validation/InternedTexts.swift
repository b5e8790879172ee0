import Foundation

/// The distinct texts of one kind in one batch (its normalized endpoints, or its rendered paths), each made into a
/// string once and numbered in the order they first come.
///
/// Realistic batches carry an id in nearly every endpoint and an index in most paths, so their reports rarely
/// repeat an endpoint or a path as written, yet they share a few grouping forms. Written into a reused buffer and
/// looked up here by their bytes, a form costs a string only the first time, and a group is found by two numbers
/// and a kind instead of by hashing its texts. Texts are equal when their bytes are, as ``GroupKey`` compares them.
struct InternedTexts {
    /// The strings, by number.
    private(set) var strings: [String] = []
    /// The hash of each string (``ByteHash``), by number.
    private var hashes: [UInt64] = []
    /// Open addressing by hash: each slot holds a string's number plus one, or 0 while empty. Its count is a power
    /// of two, kept at least twice the strings'.
    private var slots = [Int](repeating: 0, count: 32)

    /// The number of the text whose UTF-8 is `bytes`, numbering it (and making its string) when it is new.
    mutating func number(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let hash = ByteHash.of(UnsafeRawBufferPointer(bytes), seed: 0)
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[slot] != 0 {
            let number = slots[slot] - 1
            if hashes[number] == hash, Self.holds(strings[number], bytes) { return number }
            slot = (slot + 1) & (slots.count - 1)
        }
        let number = strings.count
        strings.append(String(decoding: bytes, as: UTF8.self))
        hashes.append(hash)
        slots[slot] = number + 1
        if 2 * strings.count > slots.count { rehash(into: 2 * slots.count) }
        return number
    }

    /// Whether `string` is written as `bytes`, compared as two blocks of memory.
    private static func holds(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { stored in
            stored.count == bytes.count
                && (bytes.isEmpty || memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        } ?? string.utf8.elementsEqual(bytes)
    }

    private mutating func rehash(into count: Int) {
        slots = [Int](repeating: 0, count: count)
        for (number, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & (count - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (count - 1) }
            slots[slot] = number + 1
        }
    }
}

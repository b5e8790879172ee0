/// A fast 64-bit hash of bytes, for the decoder's small tables: eight bytes at a time, then the rest with the
/// length. Not for anything stored, and not resistant to chosen collisions: the tables compare the bytes of
/// whatever hashes alike, and a collision only costs a slot.
enum ByteHash {
    /// Mixes one word into a hash (the finalizer of SplitMix64).
    static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
        return mixed ^ (mixed >> 31)
    }

    /// The hash of all of `bytes`, continuing from `seed`.
    static func of(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var hash = mix(seed, UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var offset = 0
        while offset &+ 8 <= bytes.count {
            hash = mix(hash, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset &+= 8
        }
        var tail: UInt64 = 0
        while offset < bytes.count {
            tail = tail &<< 8 | UInt64(bytes[offset])
            offset &+= 1
        }
        return mix(hash, tail)
    }
}

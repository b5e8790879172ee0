/// A small seeded random number generator (SplitMix64), so that a seed always writes the same batches.
///
/// Foundation's generator cannot be seeded, and byte-equality with Python's Mersenne Twister is not needed: the
/// workload only has to follow the same distributions as `realistic_batches.py`.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose stream depends only on `label`, as Python's `random.Random("label")` does.
    /// - Parameter label: any text; it is hashed with FNV-1a into the starting state.
    init(label: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in label.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        state = hash
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

extension SplitMix64 {
    /// A uniform integer in `range`, like Python's `randrange(lower, upper)`.
    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }

    /// A uniform number in [0, 1), like Python's `random()`.
    mutating func unit() -> Double { Double.random(in: 0..<1, using: &self) }

    /// `count` random bits (at most 64), like Python's `getrandbits(count)`.
    mutating func bits(_ count: Int) -> UInt64 { count == 0 ? 0 : next() >> (64 - count) }

    /// One element of `choices`, each as likely, like Python's `choice`.
    mutating func pick<Element>(_ choices: [Element]) -> Element { choices[int(0..<choices.count)] }

    /// The index of one weight, drawn in proportion to the weights, like Python's `choices(..., weights=)`.
    /// - Parameter cumulative: the running sums of the weights, the last one their total.
    mutating func index(cumulative: [Double]) -> Int {
        let target = unit() * cumulative[cumulative.count - 1]
        return cumulative.firstIndex { target < $0 } ?? cumulative.count - 1
    }

    /// A random version-4 UUID, lower-case unless `uppercase`, in `realistic_batches.py`'s `_uuid` shape.
    mutating func uuid(uppercase: Bool = false) -> String {
        let text =
            "\(hex(bits(32), 8))-\(hex(bits(16), 4))-4\(hex(bits(12), 3))-\(hex(0x8000 | bits(14), 4))-\(hex(bits(48), 12))"
        return uppercase ? text.uppercased() : text
    }
}

import BenchmarkSupport

/// Draws in the manner of Python's `random`, which `realistic_batches.py` uses, so that the port reads like it.
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

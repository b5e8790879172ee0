extension Int {
    /// The sum, or `Int.max` where it would overflow.
    ///
    /// Counts come from clients; adding them must never trap the collector, whatever they send.
    public func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other < 0 ? .min : .max) : sum
    }

    /// Adds `other` in place, saturating like ``addingSaturating(_:)``. On a dictionary's
    /// `[key, default: 0]` it looks the key up once, where reading and then assigning looks it up twice.
    public mutating func addSaturating(_ other: Int) {
        self = addingSaturating(other)
    }
}

extension Sequence where Element == Int {
    /// The sum of the elements, saturating at `Int.max` instead of overflowing.
    public func saturatingSum() -> Int { reduce(0) { $0.addingSaturating($1) } }
}

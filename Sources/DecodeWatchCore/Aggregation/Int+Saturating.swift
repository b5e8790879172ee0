extension Int {
    /// The sum, or `Int.max` where it would overflow.
    ///
    /// Counts come from clients; adding them must never trap the collector, whatever they send.
    public func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other < 0 ? .min : .max) : sum
    }
}

extension Sequence where Element == Int {
    /// The sum of the elements, saturating at `Int.max` instead of overflowing.
    public func saturatingSum() -> Int { reduce(0) { $0.addingSaturating($1) } }
}

@_spi(WireInternals) import DecodeWatchWire

/// The groups of one batch as validation finds them, numbered in the order their first accepted report comes.
///
/// A group is found once per report shape (``RecentShapes``), not once per report: the reports of a shape already
/// placed go to its group without their endpoint being normalized or their path rendered again.
struct BatchGroups {
    /// The key of each group, by number.
    private(set) var keys: [GroupKey] = []
    private var numbers: [GroupKey: Int] = [:]
    /// The group of each shape, by shape number; `-1` while none is known.
    private var shapeGroups: [Int]
    /// The grouping form of each endpoint met so far (`nil` for one that does not normalize), by its exact bytes:
    /// an endpoint only canonically equivalent to one met before is normalized on its own.
    var endpoints: [ExactText: String?] = [:]

    /// Groups for a batch whose reports have shape numbers below `shapeCount`.
    init(shapeCount: Int) {
        shapeGroups = Array(repeating: -1, count: shapeCount)
        // There are at most as many groups as shapes: sized once, the table is never rehashed as it fills.
        numbers.reserveCapacity(shapeCount)
    }

    /// The group that reports of shape `shape` go to, once one of them was accepted; `nil` before, or for `-1`.
    func group(ofShape shape: Int) -> Int? {
        guard shapeGroups.indices.contains(shape) else { return nil }
        let group = shapeGroups[shape]
        return group < 0 ? nil : group
    }

    /// The number of the group with key `key`, numbering it when it is new; remembered for `shape` too.
    mutating func group(for key: GroupKey, shape: Int) -> Int {
        // One hash of the key whether it is new or not: the `default:` subscript's in-place access inserts it.
        let next = keys.count
        let group = Self.value(of: &numbers[key, default: next])
        if group == next { keys.append(key) }
        if shapeGroups.indices.contains(shape) { shapeGroups[shape] = group }
        return group
    }

    private static func value(of slot: inout Int) -> Int { slot }
}

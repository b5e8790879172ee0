/// One of several disjoint parts of the groups, by `group_seq` modulo their number: summing a window over
/// every group is most of a summary's time, and each part can be summed on a connection of its own at once.
struct GroupSlice: Sendable {
    /// This part's remainder.
    let index: Int
    /// How many parts there are; 1 is every group.
    let count: Int

    /// Every group, in one part.
    static let whole = GroupSlice(index: 0, count: 1)

    /// The parts that together hold every group once.
    static func all(_ count: Int) -> [GroupSlice] {
        (0..<max(1, count)).map { GroupSlice(index: $0, count: max(1, count)) }
    }

    /// The condition, after `AND`, that keeps the rows of this part; empty for the whole.
    /// - Parameter column: the `group_seq` column to test.
    func condition(on column: String) -> String {
        count > 1 ? " AND \(column) % \(count) = \(index)" : ""
    }
}

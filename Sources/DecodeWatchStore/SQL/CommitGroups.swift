import DecodeWatchCore

/// The groups of a commit: their ids, their rows folded over every batch, and each delta's group by its position
/// among them, sorted by id.
///
/// Cells name a group by that position: they hash and sort as integers, in the order of the ids, until the group
/// upserts return each group's `group_seq`.
struct CommitGroups {
    /// The ids, sorted.
    let ids: [String]
    /// Each group's row, in the order of ``ids``.
    let rows: [GroupRow]
    /// For each batch, the position among ``ids`` of each of its deltas' group.
    let positions: [[Int]]

    /// Folds the deltas of every batch by group.
    ///
    /// A group's id is a SHA-256: worked out once per group of the commit (batches arriving together repeat the
    /// same groups), for the fold and both resolutions. Batches and deltas are read in place, by index: a copy of a
    /// delta retains each of its strings and dictionaries, and iterating (`zip`, `map`) copies every element.
    init(_ batches: [BatchAggregate]) {
        var slotOfKey: [GroupKey: Int] = [:]
        var unsorted: [(id: String, row: GroupRow)] = []
        let slots = batches.indices.map { batch in
            batches[batch].groups.indices.map { delta -> Int in
                let key = batches[batch].groups[delta].key
                if let slot = slotOfKey[key] {
                    unsorted[slot].row.fold(batches[batch].groups[delta], of: batches[batch])
                    return slot
                }
                slotOfKey[key] = unsorted.count
                unsorted.append((key.id, GroupRow(batches[batch].groups[delta], of: batches[batch])))
                return unsorted.count - 1
            }
        }
        let order = unsorted.indices.sorted { unsorted[$0].id < unsorted[$1].id }
        var position = Array(repeating: 0, count: unsorted.count)
        for (sorted, slot) in order.enumerated() { position[slot] = sorted }
        ids = order.map { unsorted[$0].id }
        rows = order.map { unsorted[$0].row }
        positions = slots.map { $0.map { position[$0] } }
    }
}

/// A group's cell at one resolution: the group (by its `group_seq`) and a bucket (an hour or a minute index).
struct CellKey: Hashable, Comparable, Sendable {
    let group: Int64
    let bucket: Int64

    init(_ group: Int64, _ bucket: Int64) {
        self.group = group
        self.bucket = bucket
    }

    /// The cell a row names in its `group_seq` and `bucket` columns.
    init(_ row: SQLRecord) throws {
        self.init(try row.integer("group_seq"), try row.integer("bucket"))
    }

    static func < (a: CellKey, b: CellKey) -> Bool {
        (a.group, a.bucket) < (b.group, b.bucket)
    }
}

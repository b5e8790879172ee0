/// A group's cell at one resolution: the group and a bucket (an hour or a minute index).
struct CellKey: Hashable, Comparable, Sendable {
    let group: String
    let bucket: Int64

    init(_ group: String, _ bucket: Int64) {
        self.group = group
        self.bucket = bucket
    }

    /// The cell a row names in its `group_id` and `bucket` columns.
    init(_ row: SQLRecord) throws {
        self.init(try row.text("group_id"), try row.integer("bucket"))
    }

    /// The order rows are written in, so that PostgreSQL writers lock them in one order.
    static func < (a: CellKey, b: CellKey) -> Bool {
        (a.group, a.bucket) < (b.group, b.bucket)
    }
}

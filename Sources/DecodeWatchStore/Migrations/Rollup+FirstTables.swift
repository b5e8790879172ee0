extension Rollup {
    /// The cell tables of this resolution as first created, keyed by `group_id` and the bucket: report counts with
    /// an index by bucket that carries the count, counts per app version and per expected type, install hashes, and
    /// the endpoints' decode counts. Hourly and per-minute rollups began with the same tables; later migrations
    /// change both alike (``EnvironmentKeyedTable``, `group_seq`).
    var firstCellTables: [SchemaStep] {
        let bucket = column
        return [
            .createTable(
                groupCounts, [.text("group_id"), .integer(bucket), .integer("count")],
                primaryKey: ["group_id", bucket], withoutRowID: true),
            .createIndex("\(groupCounts)_on_\(bucket)", on: groupCounts, [bucket, "group_id"], including: ["count"]),
            .createTable(
                versions, [.text("group_id"), .integer(bucket), .text("version"), .integer("count")],
                primaryKey: ["group_id", bucket, "version"], withoutRowID: true),
            .createTable(
                expected, [.text("group_id"), .integer(bucket), .text("expected"), .integer("count")],
                primaryKey: ["group_id", bucket, "expected"], withoutRowID: true),
            .createTable(
                installs, [.text("group_id"), .integer(bucket), .integer("install_hash")],
                primaryKey: ["group_id", bucket, "install_hash"], withoutRowID: true),
            .createTable(
                endpointCounts, [.text("app_id"), .text("endpoint"), .integer(bucket), .integer("count")],
                primaryKey: ["app_id", "endpoint", bucket], withoutRowID: true),
        ]
    }
}

/// A table of group cells as the migration that keys cells by `group_seq` rebuilds it: its columns after
/// `group_seq`, and its primary key after `group_seq`.
struct CellTable: Sendable {
    let name: String
    /// The columns after `group_seq`, the bucket first.
    let columns: [SchemaColumn]
    /// The primary key's columns after `group_seq`.
    let key: [String]

    /// Every cell table of both resolutions.
    static var all: [CellTable] {
        Rollup.allCases.flatMap { rollup -> [CellTable] in
            let bucket = rollup.column
            return [
                CellTable(
                    name: rollup.groupCounts,
                    columns: [.integer(bucket), .integer("count"), .integer("exact_installs", .defaulting("0"))],
                    key: [bucket]),
                CellTable(
                    name: rollup.versions, columns: [.integer(bucket), .text("version"), .integer("count")],
                    key: [bucket, "version"]),
                CellTable(
                    name: rollup.expected, columns: [.integer(bucket), .text("expected"), .integer("count")],
                    key: [bucket, "expected"]),
                CellTable(
                    name: rollup.installs, columns: [.integer(bucket), .integer("install_hash")],
                    key: [bucket, "install_hash"]),
                CellTable(name: rollup.installSketches, columns: [.integer(bucket), .bytes("sketch")], key: [bucket]),
            ]
        }
    }

    /// The steps that rebuild the table keyed by `groups.group_seq`, dropping cells of groups that no longer exist.
    var rekeyed: [SchemaStep] {
        let names = columns.map(\.name).joined(separator: ", ")
        let copied = columns.map { "t.\($0.name)" }.joined(separator: ", ")
        return [
            .createTable(
                "\(name)_keyed", [.integer("group_seq")] + columns, primaryKey: ["group_seq"] + key,
                withoutRowID: true),
            .sql(
                """
                INSERT INTO \(name)_keyed (group_seq, \(names))
                SELECT g.group_seq, \(copied) FROM \(name) t JOIN groups g ON g.group_id = t.group_id
                """),
            .sql("DROP TABLE \(name)"),
            .sql("ALTER TABLE \(name)_keyed RENAME TO \(name)"),
            // PostgreSQL's key index keeps the name it was created with.
            .only(.postgres, [.sql("ALTER INDEX \(name)_keyed_pkey RENAME TO \(name)_pkey")]),
        ]
    }
}

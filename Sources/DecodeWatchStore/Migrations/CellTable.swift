/// A table of group cells as the migration that keys cells by `group_seq` rebuilds it, on either backend:
/// its columns after `group_seq`, and its primary key after `group_seq`.
package struct CellTable: Sendable {
    /// A column's type, spelled per backend by ``definitions(in:)``.
    package enum ColumnType: Sendable {
        case integer
        case text
        case bytes
    }

    package let name: String
    /// The columns after `group_seq`, the bucket first; counts default to 0 where the table had a default.
    package let columns: [(name: String, type: ColumnType, defaultZero: Bool)]
    /// The primary key's columns after `group_seq`.
    package let key: String

    /// Every cell table of both resolutions.
    package static var all: [CellTable] {
        Rollup.allCases.flatMap { rollup -> [CellTable] in
            let bucket = rollup.column
            return [
                CellTable(
                    name: rollup.groupCounts,
                    columns: [
                        (bucket, .integer, false), ("count", .integer, false), ("exact_installs", .integer, true),
                    ],
                    key: bucket),
                CellTable(
                    name: rollup.versions,
                    columns: [(bucket, .integer, false), ("version", .text, false), ("count", .integer, false)],
                    key: "\(bucket), version"),
                CellTable(
                    name: rollup.expected,
                    columns: [(bucket, .integer, false), ("expected", .text, false), ("count", .integer, false)],
                    key: "\(bucket), expected"),
                CellTable(
                    name: rollup.installs, columns: [(bucket, .integer, false), ("install_hash", .integer, false)],
                    key: "\(bucket), install_hash"),
                CellTable(
                    name: rollup.installSketches, columns: [(bucket, .integer, false), ("sketch", .bytes, false)],
                    key: bucket),
            ]
        }
    }

    /// The column definitions after `group_seq`, in a dialect's types.
    private func definitions(in dialect: SQLDialect) -> String {
        columns.map { column in
            let type: String
            switch (column.type, dialect) {
            case (.integer, .sqlite): type = "INTEGER"
            case (.integer, .postgres): type = "BIGINT"
            case (.text, _): type = "TEXT"
            case (.bytes, .sqlite): type = "BLOB"
            case (.bytes, .postgres): type = "BYTEA"
            }
            return "\(column.name) \(type) NOT NULL\(column.defaultZero ? " DEFAULT 0" : "")"
        }
        .joined(separator: ", ")
    }

    /// The statements that rebuild the table keyed by `groups.group_seq`, dropping cells of groups that no
    /// longer exist.
    package func rekeyed(in dialect: SQLDialect) -> [String] {
        let names = columns.map(\.name).joined(separator: ", ")
        let copied = columns.map { "t.\($0.name)" }.joined(separator: ", ")
        return [
            """
            CREATE TABLE \(name)_keyed (
                group_seq \(dialect == .sqlite ? "INTEGER" : "BIGINT") NOT NULL, \(definitions(in: dialect)),
                PRIMARY KEY (group_seq, \(key))
            )\(dialect == .sqlite ? " WITHOUT ROWID" : "")
            """,
            """
            INSERT INTO \(name)_keyed (group_seq, \(names))
            SELECT g.group_seq, \(copied) FROM \(name) t JOIN groups g ON g.group_id = t.group_id
            """,
            "DROP TABLE \(name)",
            "ALTER TABLE \(name)_keyed RENAME TO \(name)",
        ] + (dialect == .postgres ? ["ALTER INDEX \(name)_keyed_pkey RENAME TO \(name)_pkey"] : [])
    }
}

/// A table that the migration adding environments (``SchemaMigration/all``, `addEnvironments`) gives an
/// `environment` column in its primary key; rows stored before it count as `production`.
struct EnvironmentKeyedTable: Sendable {
    let name: String
    /// Its columns before the migration, in order.
    let columns: [SchemaColumn]
    /// Its primary key after the migration, `environment` included.
    let key: [String]
    /// Its indexes besides the key, which SQLite's rebuild creates again.
    var indexes: [SchemaStep] = []

    /// The column every such table gains.
    static let column = SchemaColumn.text("environment", .defaulting("'production'"))

    /// Every such table of both resolutions: the cells that say which versions and installs a group's reports came
    /// from, and the decode counts per version.
    static var all: [EnvironmentKeyedTable] {
        Rollup.allCases.flatMap { rollup -> [EnvironmentKeyedTable] in
            let bucket = rollup.column
            let decodes = rollup.endpointVersionCounts
            return [
                EnvironmentKeyedTable(
                    name: rollup.versions,
                    columns: [.integer("group_seq"), .integer(bucket), .text("version"), .integer("count")],
                    key: ["group_seq", bucket, "environment", "version"]),
                EnvironmentKeyedTable(
                    name: rollup.installs,
                    columns: [.integer("group_seq"), .integer(bucket), .integer("install_hash")],
                    key: ["group_seq", bucket, "environment", "install_hash"]),
                EnvironmentKeyedTable(
                    name: rollup.installSketches,
                    columns: [.integer("group_seq"), .integer(bucket), .bytes("sketch")],
                    key: ["group_seq", bucket, "environment"]),
                EnvironmentKeyedTable(
                    name: decodes,
                    columns: [
                        .text("app_id"), .text("version"), .text("endpoint"), .integer(bucket), .integer("count"),
                    ],
                    key: ["app_id", "version", "environment", "endpoint", bucket],
                    indexes: [.createIndex("\(decodes)_on_\(bucket)", on: decodes, [bucket])]),
            ]
        }
    }

    /// The steps that add the column to the key: SQLite, which cannot change a key, copies the rows into a new
    /// table; PostgreSQL adds the column and replaces the key's constraint.
    var steps: [SchemaStep] {
        let names = columns.map(\.name).joined(separator: ", ")
        return [
            .only(
                .sqlite,
                [
                    .createTable("\(name)_environments", columns + [Self.column], primaryKey: key, withoutRowID: true),
                    .sql("INSERT INTO \(name)_environments (\(names)) SELECT \(names) FROM \(name)"),
                    .sql("DROP TABLE \(name)"),
                    .sql("ALTER TABLE \(name)_environments RENAME TO \(name)"),
                ] + indexes),
            .only(
                .postgres,
                [
                    .addColumn(Self.column, to: name),
                    .sql("ALTER TABLE \(name) DROP CONSTRAINT \(name)_pkey"),
                    .sql(
                        "ALTER TABLE \(name) ADD CONSTRAINT \(name)_pkey PRIMARY KEY (\(key.joined(separator: ", ")))"),
                ]),
        ]
    }
}

import DecodeWatchStore
import GRDB
import PostgresNIO

/// A database's schema as its catalogs tell it, in terms both stores share: tables by name, each with its columns,
/// keys and indexes, column types named by ``SchemaColumn/ValueType``.
struct LiveSchema: Equatable {
    struct Column: Equatable, CustomStringConvertible {
        /// The ``SchemaColumn/ValueType`` the store's type name spells, or the name itself when it spells none.
        var type: String
        /// Whether it refuses `NULL`; a column of the primary key does in both stores.
        var notNull: Bool
        /// The SQL of its default, without PostgreSQL's cast to the column's type.
        var defaultValue: String?

        var description: String { "\(type)\(notNull ? " not null" : "")\(defaultValue.map { " default \($0)" } ?? "")" }
    }

    struct Index: Equatable, CustomStringConvertible {
        /// Its columns in order, those PostgreSQL's carries as `INCLUDE` columns last.
        var columns: [String]
        var unique: Bool

        var description: String { "\(unique ? "unique " : "")(\(columns.joined(separator: ", ")))" }
    }

    struct Table: Equatable {
        /// The columns by name, not in order: `group_seq` is the first column of `groups` in SQLite, which rebuilt
        /// the table around it, and the last in PostgreSQL, which added it.
        var columns: [String: Column] = [:]
        /// The primary key and the unique constraints, as column lists. Which of them is the primary key is left
        /// out: SQLite keys `groups` by `group_seq`, its rowid, where PostgreSQL added `group_seq` as a unique
        /// identity column and kept `group_id` as the key (``SchemaMigration/all``, `keyCellsByGroupSeq`).
        var keys: Set<[String]> = []
        /// The indexes created by name.
        var indexes: [String: Index] = [:]
    }

    var tables: [String: Table] = [:]

    /// The differences from another schema, one line each; none when they are the same.
    func differences(from other: LiveSchema, names: (this: String, other: String)) -> [String] {
        func show<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "nothing" }
        var lines: [String] = []
        for name in Set(tables.keys).union(other.tables.keys).sorted() {
            guard let table = tables[name], let otherTable = other.tables[name] else {
                lines.append("table \(name): only in \(tables[name] == nil ? names.other : names.this)")
                continue
            }
            for column in Set(table.columns.keys).union(otherTable.columns.keys).sorted()
            where table.columns[column] != otherTable.columns[column] {
                lines.append(
                    "column \(name).\(column): \(names.this) \(show(table.columns[column])), "
                        + "\(names.other) \(show(otherTable.columns[column]))")
            }
            if table.keys != otherTable.keys {
                lines.append(
                    "keys of \(name): \(names.this) \(table.keys.sorted { "\($0)" < "\($1)" }), "
                        + "\(names.other) \(otherTable.keys.sorted { "\($0)" < "\($1)" })")
            }
            for index in Set(table.indexes.keys).union(otherTable.indexes.keys).sorted()
            where table.indexes[index] != otherTable.indexes[index] {
                lines.append(
                    "index \(name).\(index): \(names.this) \(show(table.indexes[index])), "
                        + "\(names.other) \(show(otherTable.indexes[index]))")
            }
        }
        return lines
    }

    /// The type a store's type name spells.
    private static func type(_ name: String, in dialect: SQLDialect) -> String {
        SchemaColumn.ValueType.allCases.first { dialect.name(of: $0) == name.uppercased() }.map { "\($0)" } ?? name
    }

    /// A SQLite database's schema, from `sqlite_master` and its pragmas; without GRDB's `grdb_migrations`.
    static func read(_ db: Database) throws -> LiveSchema {
        var schema = LiveSchema()
        let names = try String.fetchAll(
            db,
            sql: """
                SELECT name FROM sqlite_master
                WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'
                """)
        for name in names {
            var table = Table()
            var primaryKey: [(position: Int, name: String)] = []
            for row in try Row.fetchAll(db, sql: "SELECT * FROM pragma_table_info(?)", arguments: [name]) {
                let (column, position): (String, Int) = (row["name"], row["pk"])
                if position > 0 { primaryKey.append((position, column)) }
                table.columns[column] = Column(
                    type: type(row["type"], in: .sqlite), notNull: row["notnull"] || position > 0,
                    defaultValue: row["dflt_value"])
            }
            if !primaryKey.isEmpty { table.keys.insert(primaryKey.sorted { $0.position < $1.position }.map(\.name)) }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM pragma_index_list(?)", arguments: [name]) {
                let (index, origin): (String, String) = (row["name"], row["origin"])
                // The primary key's own index, when it has one, is read above.
                guard origin != "pk" else { continue }
                let columns = try String.fetchAll(
                    db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index])
                if origin == "u" {
                    table.keys.insert(columns)
                } else {
                    table.indexes[index] = Index(columns: columns, unique: row["unique"])
                }
            }
            schema.tables[name] = table
        }
        return schema
    }

    /// The schema of a PostgreSQL connection's current schema, from `information_schema` and `pg_index`; without
    /// `schema_migrations`.
    static func read(_ connection: PostgresConnection, logger: Logger) async throws -> LiveSchema {
        var schema = LiveSchema()
        let columns = try await connection.query(
            """
            SELECT table_name::text, column_name::text, data_type::text, is_nullable = 'NO',
                regexp_replace(column_default, '::[a-z ]+$', '')
            FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'
            """, logger: logger)
        for try await (table, column, type, notNull, defaultValue) in columns.decode(
            (String, String, String, Bool, String?).self)
        {
            schema.tables[table, default: Table()].columns[column] = Column(
                type: Self.type(type, in: .postgres), notNull: notNull, defaultValue: defaultValue)
        }
        // An index's `indkey` holds its keys, then its `INCLUDE` columns.
        let indexes = try await connection.query(
            """
            SELECT t.relname::text, i.relname::text, x.indisunique,
                x.indisprimary OR EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid),
                (SELECT array_agg(a.attname::text ORDER BY k.n)
                 FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum)
            FROM pg_index x
            JOIN pg_class i ON i.oid = x.indexrelid
            JOIN pg_class t ON t.oid = x.indrelid
            WHERE t.relnamespace = current_schema()::regnamespace AND t.relname <> 'schema_migrations'
            """, logger: logger)
        for try await (table, index, unique, isKey, columns) in indexes.decode(
            (String, String, Bool, Bool, [String]).self)
        {
            if isKey {
                schema.tables[table, default: Table()].keys.insert(columns)
            } else {
                schema.tables[table, default: Table()].indexes[index] = Index(columns: columns, unique: unique)
            }
        }
        return schema
    }
}

extension FreshDatabase {
    /// The database's schema as its catalogs tell it.
    func schema() async throws -> LiveSchema {
        switch self {
        case .sqlite(let folder): return try await Self.connection(to: folder).read { try LiveSchema.read($0) }
        case .postgres(_, let admin): return try await LiveSchema.read(admin, logger: Self.logger)
        }
    }
}

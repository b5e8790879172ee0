import DecodeWatchStore
import Testing

@Suite("SQL builder")
struct SQLBuilderTests {
    @Test("values bound in a fragment take the next positions in the order they appear, spelled by the dialect")
    func numbersInOrder() {
        let sqlite = SQLDialect.sqlite.statement("a = \(bind: .integer(1)) AND b IN (\(bind: [.text("x"), .null]))")
        #expect(sqlite.sql == "a = ?1 AND b IN (?2, ?3)")
        #expect(sqlite.arguments == [.integer(1), .text("x"), .null])
        let postgres = SQLDialect.postgres.statement("a = \(bind: .integer(1)) AND b IN (\(bind: [.text("x"), .null]))")
        #expect(postgres.sql == "a = $1 AND b IN ($2, $3)")
    }

    @Test("a value bound ahead is named by its placeholder as often as needed, and later values number on from it")
    func sharedValue() {
        var sql = SQLBuilder(.postgres)
        let since = sql.bind(.integer(7))
        let condition = "x >= \(since) AND y >= \(since)"
        sql.append("SELECT 1 WHERE \(condition) AND z = \(bind: .text("z"))")
        #expect(sql.statement().sql == "SELECT 1 WHERE x >= $1 AND y >= $1 AND z = $2")
        #expect(sql.statement().arguments == [.integer(7), .text("z")])
    }

    @Test("copies of a builder share the values bound before the copy, each with its own text")
    func sharedPrefix() {
        var shared = SQLBuilder(.sqlite)
        let key = shared.bind(.integer(3))
        let read = shared.statement(appending: "SELECT * FROM t WHERE k = \(key)")
        let delete = shared.statement(appending: "DELETE FROM t WHERE k = \(key) AND v = \(bind: .integer(4))")
        #expect(read.sql == "SELECT * FROM t WHERE k = ?1")
        #expect(read.arguments == [.integer(3)])
        #expect(delete.sql == "DELETE FROM t WHERE k = ?1 AND v = ?2")
        #expect(delete.arguments == [.integer(3), .integer(4)])
    }

    @Test(
        "values bound in text order are anonymous on SQLite, numbered on PostgreSQL, numbered after a value bound ahead"
    )
    func inOrder() {
        let rows: [[SQLValue]] = [[.integer(1), .integer(2)], [.integer(3), .integer(4)]]
        for (dialect, expected) in [(SQLDialect.sqlite, "(?, ?), (?, ?)"), (.postgres, "($1, $2), ($3, $4)")] {
            var sql = SQLBuilder(dialect)
            sql.append("(\(bindInOrder: rows[0])), (\(bindInOrder: rows[1]))")
            #expect(sql.statement().sql == expected)
            #expect(sql.statement().arguments == rows.flatMap { $0 })
        }
        var ahead = SQLBuilder(.sqlite)
        let first = ahead.bind(.integer(0))
        ahead.append("\(first), \(bindInOrder: rows[0])")
        #expect(ahead.statement().sql == "?1, ?2, ?3")
    }

    @Test("a nested fragment binds its values where it appears")
    func nested() {
        let condition: SQLFragment = "k = \(bind: .text("a"))"
        let statement = SQLDialect.sqlite.statement("SELECT \(bind: .integer(1)) WHERE \(condition) LIMIT \(5)")
        #expect(statement.sql == "SELECT ?1 WHERE k = ?2 LIMIT 5")
        #expect(statement.arguments == [.integer(1), .text("a")])
    }
}

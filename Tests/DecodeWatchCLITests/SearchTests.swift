import DecodeWatchCore
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Finding groups by a word: `fields --search`, `GET /v1/fields?q=` and the dashboard's search box.
@Suite("Search")
struct SearchTests {
    /// The paths of the groups a `fields --search` lists.
    static func paths(_ arguments: [String]) throws -> [String] {
        let result = try CLI.run(["fields", "--format", "json"] + arguments + CLI.exampleWindow)
        #expect(result.status == 0, "\(result.error)")
        return try JSONDecoder().decode(FieldsSummary.self, from: Data(result.output.utf8)).fields.map(\.path).sorted()
    }

    @Test(
        "a word finds the groups whose path, endpoint, expected type, type name or message holds it, in any case",
        arguments: Storage.allCases)
    func searchMatchesEveryText(storage: Storage) async throws {
        try await CLI.withExampleCollector(on: storage) { db, port, session in
            let all = try Self.paths(db)
            let association = try #require(all.first { $0.hasSuffix("author_association") })
            let color = try #require(all.first { $0.hasSuffix("color") })
            let rawURL = try #require(all.first { $0.hasSuffix("raw_url") })
            let cases: [(String, [String])] = [
                ("ASSOCIATION", [association]),  // path, another case
                ("labels", [color]),  // endpoint
                ("found a number", [color]),  // message
                ("URL", [rawURL]),  // path, expected type and message of one group
                ("gist", [rawURL]),  // type name and endpoint
                ("%", []),  // a LIKE wildcard is taken literally
                ("nowhere", []),
            ]
            for (word, expected) in cases {
                #expect(try Self.paths(["--search", word] + db) == expected, "--search \(word)")
            }
            #expect(try Self.paths(["--search", "association", "--kind", "typeMismatch"] + db).isEmpty)
            #expect(try Self.paths(["--search", "a", "--kind", "typeMismatch"] + db) == [color])

            // The API's q= is the same filter: the remote CLI prints the database's answer.
            let remote = ["--url", "http://127.0.0.1:\(port)"]
            for format in ["json", "table"] {
                let local = try CLI.run(["fields", "--search", "label", "--format", format] + db + CLI.exampleWindow)
                let asked = try CLI.run(
                    ["fields", "--search", "label", "--format", format] + remote + CLI.exampleWindow)
                #expect(asked.status == 0 && asked.output == local.output, "\(asked.error)")
            }
        }
    }

    @Test("an empty or overlong search is refused with a sentence, by the CLI and the API")
    func badSearches() async throws {
        try await CLI.withCollector(on: .sqlite) { db, port, session in
            let empty = try CLI.run(["fields", "--search", ""] + db)
            #expect(empty.status == 64)
            #expect(empty.error.contains("--search must be 1–200 characters"), "\(empty.error)")
            let long = try CLI.run(["fields", "--search", String(repeating: "x", count: 201)] + db)
            #expect(long.status == 64)
            for query in ["q=", "q=" + String(repeating: "x", count: 201)] {
                let url = URL(string: "http://127.0.0.1:\(port)/v1/fields?\(query)")!
                let (data, answer) = try await session.data(from: url)
                #expect((answer as? HTTPURLResponse)?.statusCode == 400)
                #expect(String(decoding: data, as: UTF8.self).contains("q must be 1–200 characters"))
            }
        }
    }

    @Test("the dashboard's search box narrows the list and stays in its links; its windows reach 30 days")
    func dashboardSearch() async throws {
        try await CLI.withExampleCollector(on: .sqlite) { db, port, session in
            let url = URL(string: "http://127.0.0.1:\(port)/?q=COLOR&window=30d")!
            let (data, answer) = try await session.data(from: url)
            #expect((answer as? HTTPURLResponse)?.statusCode == 200)
            let page = String(decoding: data, as: UTF8.self)
            #expect(page.contains("color"))
            #expect(!page.contains("author_association"))
            #expect(!page.contains("raw_url"))
            #expect(page.contains(#"<input type="search" name="q" value="COLOR""#))
            #expect(page.contains(#"<option value="30d" selected>Last 30 days</option>"#))
            #expect(page.contains("q=COLOR"), "the tabs and pages keep the search")
        }
    }
}

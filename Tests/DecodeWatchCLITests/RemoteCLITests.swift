import DecodeWatchCore
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("The CLI against a running collector (--url, --token)")
struct RemoteCLITests {
    static let window = CLI.exampleWindow

    @Test(
        "fields, drift and the alert and contract lists print the same bytes through the API as from the database",
        arguments: Storage.allCases)
    func sameOutput(storage: Storage) async throws {
        try await CLI.withExampleCollector(on: storage) { db, port, session in
            let spec = CLI.repository.appendingPathComponent("SDK/Tests/DecodeWatchTests/Fixtures/github-openapi.yaml")
                .path
            #expect(
                try CLI.run(["contracts", "import", spec, "--app", "com.example.octo", "--name", "github"] + db).status
                    == 0)
            let rule = [
                "alerts", "add", "--name", "new fields", "--when", "new", "--webhook",
                "https://hooks.example.com/T0/secret",
            ]
            #expect(try CLI.run(rule + db).status == 0)
            let remote = ["--url", "http://127.0.0.1:\(port)"]
            for command in [["fields"], ["drift"]] {
                for format in ["json", "table", "csv"] {
                    let local = try CLI.run(command + ["--format", format] + db + Self.window)
                    let asked = try CLI.run(command + ["--format", format] + remote + Self.window)
                    #expect(local.status == 0 && asked.status == 0, "\(local.error) \(asked.error)")
                    #expect(asked.output == local.output, "\(command) --format \(format)")
                }
            }
            for command in [
                ["alerts", "list"], ["contracts", "list"], ["contracts", "list", "--app", "com.example.octo"],
            ] {
                for format in ["json", "table"] {
                    let local = try CLI.run(command + ["--format", format] + db)
                    let asked = try CLI.run(command + ["--format", format] + remote)
                    #expect(local.status == 0 && asked.status == 0, "\(local.error) \(asked.error)")
                    #expect(asked.output == local.output, "\(command) --format \(format)")
                    #expect(!asked.output.contains("secret"))
                }
            }
            let summary = try JSONDecoder().decode(
                FieldsSummary.self,
                from: Data(try CLI.run(["fields", "--format", "json"] + remote + Self.window).output.utf8))
            #expect(summary.fields.count == 3)
            // DECODEWATCH_URL chooses the collector when no database flag is given.
            let fromEnvironment = try CLI.run(
                ["fields", "--format", "json"] + Self.window,
                environment: ["DECODEWATCH_URL": "http://127.0.0.1:\(port)"])
            #expect(fromEnvironment.output == (try CLI.run(["fields", "--format", "json"] + db + Self.window)).output)
        }
    }

    @Test(
        "with read tokens: no token names the token to pass, an unknown one is refused, a valid one reads every list")
    func readTokens() async throws {
        try await CLI.withExampleCollector(on: .sqlite) { db, port, session in
            let created = try CLI.run(["tokens", "create", "--name", "laptop"] + db)
            let token = try #require(
                created.output.split(separator: "\n").first { $0.hasPrefix("dwr_") }.map(String.init))
            let remote = ["--url", "http://127.0.0.1:\(port)"]
            let refused = try CLI.run(["fields"] + remote + Self.window)
            #expect(refused.status == 1)
            #expect(
                refused.error.contains("needs a read token: pass --token dwr_… or set DECODEWATCH_TOKEN"),
                "\(refused.error)")
            let read = try CLI.run(["fields", "--format", "json", "--token", token] + remote + Self.window)
            #expect(read.status == 0, "\(read.error)")
            #expect(read.output == (try CLI.run(["fields", "--format", "json"] + db + Self.window)).output)
            let viaEnvironment = try CLI.run(
                ["fields"] + remote + Self.window, environment: ["DECODEWATCH_TOKEN": token])
            #expect(viaEnvironment.status == 0, "\(viaEnvironment.error)")
            for list in [["alerts", "list"], ["contracts", "list"]] {
                #expect(try CLI.run(list + remote).error.contains("needs a read token"), "\(list)")
                let allowed = try CLI.run(list + ["--token", token] + remote)
                let local = try CLI.run(list + db)
                #expect(allowed.status == 0 && allowed.output == local.output, "\(list)")
            }
            let wrong = try CLI.run(["fields", "--token", "dwr_not-a-token"] + remote + Self.window)
            #expect(wrong.status == 1)
            #expect(wrong.error.contains("refused the read token"), "\(wrong.error)")
        }
    }

    @Test("resolving through the API with a read-scoped token says which scope it needs; a triage token resolves")
    func tokenScopes() async throws {
        try await CLI.withExampleCollector(on: .sqlite) { db, port, session in
            func token(_ arguments: [String]) throws -> String {
                let created = try CLI.run(["tokens", "create", "--name", "laptop"] + arguments + db)
                return try #require(
                    created.output.split(separator: "\n").first { $0.hasPrefix("dwr_") }.map(String.init))
            }
            let reader = try token([])
            let remote = ["--url", "http://127.0.0.1:\(port)"]
            let fields = try CLI.run(["fields", "--format", "json", "--token", reader] + remote + Self.window)
            let group = try #require(
                try JSONDecoder().decode(FieldsSummary.self, from: Data(fields.output.utf8)).fields.first?.group)
            let refused = try CLI.run(["resolve", group, "--token", reader] + remote)
            #expect(refused.status == 1)
            #expect(
                refused.error.contains(
                    "Resolving a group needs a token with the 'triage' scope; this token has 'read'. "
                        + "Create one with `decodewatch tokens create --name NAME --scope triage`."),
                "\(refused.error)")
            let resolved = try CLI.run(["resolve", group, "--token", try token(["--scope", "triage"])] + remote)
            #expect(resolved.status == 0, "\(resolved.error)")
        }
    }

    @Test(
        "commands that need the database say so when given --url, and --url is checked before anything runs",
        arguments: [
            (
                ["contracts", "remove", "x", "--app", "a", "--url", "http://127.0.0.1:9"],
                "works on the database itself"
            ),
            (["keys", "create", "--app", "a", "--create", "--url", "http://127.0.0.1:9"], "--create makes a missing"),
            (["alerts", "remove", "rule_x", "--url", "http://127.0.0.1:9"], "works on the database itself"),
            (["digest", "--url", "http://127.0.0.1:9"], "works on the database itself"),
            (["fields", "--url", "http://127.0.0.1:9", "--db", "x.sqlite"], "exclude each other"),
            (["fields", "--url", "ftp://example.com"], "must be an http(s) address"),
            (["fields", "--token", "dwr_x", "--db", "x.sqlite"], "--token goes with --url"),
        ])
    func refusedFlags(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test("an unreachable collector is one clear line and exit 1")
    func unreachable() throws {
        let result = try CLI.run(["fields", "--url", "http://127.0.0.1:9"])
        #expect(result.status == 1)
        #expect(result.error.contains("Could not connect to the collector at http://127.0.0.1:9"), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    }
}

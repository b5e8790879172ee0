import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

/// `decodewatch alerts add|list|remove|test` on each store: rules that cannot work are refused with one
/// sentence and nothing is stored; webhook secrets never show.
@Suite("Alert commands")
struct AlertCommandTests {
    @Test(
        "add refuses a rule that cannot work, naming what is wrong, and stores nothing",
        arguments: [
            (
                ["--when", "new", "--webhook", "ftp://hooks.example.com/x"],
                "'ftp://hooks.example.com/x' is not an http(s) URL"
            ),
            (["--when", "new", "--webhook", "not a url"], "--webhook 'not a url' is not an http(s) URL"),
            (["--when", "new", "--over", "30s"], "must be whole minutes"),
            (["--when", "new", "--over", "8d"], "longer than 7d"),
            (["--when", "rate-above:0"], "must be a percentage above 0 and at most 100"),
            (["--when", "rate-above:150"], "must be a percentage above 0 and at most 100"),
            (["--when", "rate-above:5"], "needs decode counts, and no client has reported any"),
            (["--when", "rate-above:5", "--environment", "staging"], "no client has reported any in staging"),
            (["--when", "count-above:many"], "must be a whole number"),
            (["--when", "sometimes"], "is unknown; use new, regressed, count-above:N or rate-above:P"),
            (["--when", "new", "--kind", "oops"], "--kind 'oops' is unknown"),
            (["--when", "new", "--environment", "no spaces"], "--environment 'no spaces' must be 1–64 characters"),
        ])
    func refusals(arguments: [String], problem: String) throws {
        try CLI.withDatabase(on: .sqlite) { _, database in
            let webhook = arguments.contains("--webhook") ? [] : ["--webhook", "https://hooks.example.com/T/B/secret"]
            let result = try CLI.run(["alerts", "add", "--create", "--name", "r"] + webhook + arguments + database)
            #expect(result.status != 0)
            #expect(result.error.contains(problem), "\(result.error)")
            #expect(!result.error.contains("secret"))
            // A rule refused before the store is opened leaves no database, which `alerts list` then refuses.
            let list = try CLI.run(["alerts", "list"] + database)
            if FileManager.default.fileExists(atPath: database[1]) {
                #expect(list.output.hasPrefix("No alert rules."), "\(list.output)")
            } else {
                #expect(list.status != 0 && list.error.contains("No database at"), "\(list.error)")
            }
        }
    }

    @Test("add, list without secrets, test to a real receiver, and remove", arguments: Storage.allCases)
    func lifecycle(storage: Storage) async throws {
        try await CLI.withDatabase(on: storage) { _, database in
            let receiver = try await TestReceiver.webhook()
            defer { receiver.cancel() }
            let webhook = "http://127.0.0.1:\(receiver.port)/services/T000/B000/secret-token-123"
            let added = try CLI.run(
                [
                    "alerts", "add", "--create", "--name", "posts", "--endpoint", "get /v2/posts/42", "--when",
                    "count-above:50",
                    "--over",
                    "1h", "--webhook", webhook, "--format", "json", "--environment", "staging",
                ] + database)
            #expect(added.status == 0, "\(added.error)")
            let id = try #require(added.output.split(separator: " ").first { $0.hasPrefix("rule_") }.map(String.init))

            let table = try CLI.run(["alerts", "list"] + database).output
            #expect(table.contains(id) && table.contains("count-above:50") && table.contains("GET /v2/posts/{id}"))
            #expect(table.contains("GET /v2/posts/{id} in staging"))
            let json = try CLI.run(["alerts", "list", "--format", "json"] + database).output
            let rules = try JSONDecoder().decode([AlertRuleListing].self, from: Data(json.utf8))
            #expect(rules.first?.webhook == "http://127.0.0.1:\(receiver.port)/…")
            #expect(rules.first?.environment == "staging")
            #expect(!table.contains("secret-token-123") && !json.contains("secret-token-123"))

            let sent = try CLI.run(["alerts", "test", id] + database)
            #expect(sent.status == 0, "\(sent.error)")
            #expect(sent.output.contains("Sent a sample alert") && !sent.output.contains("secret-token-123"))
            let alert = try JSONDecoder().decode(JSONAlert.self, from: receiver.requests[0].body)
            #expect(alert.test)
            #expect(alert.rule.environment == "staging")
            #expect(try AlertSchema.validate(receiver.requests[0].body) == "valid")

            #expect(try CLI.run(["alerts", "remove", id] + database).status == 0)
            #expect(try CLI.run(["alerts", "list"] + database).output.hasPrefix("No alert rules."))
            let again = try CLI.run(["alerts", "remove", id] + database)
            #expect(again.status != 0 && again.error.contains("No alert rule has the id"))
        }
    }
}

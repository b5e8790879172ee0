import DecodeWatchCore
import Foundation
import Testing

@testable import DecodeWatchCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Errors a person can act on: the flag as typed, the command's own usage, the cause in words")
struct CLIErrorTests {
    /// A database path that does not exist, so that no command of these tests creates a file where it runs.
    static let nowhere = ["--db", "/nonexistent/folder/x.sqlite"]
    static let group = "0123456789abcdef"

    @Test(
        "a bad value names its flag with the dashes and shows the subcommand's usage, exit 64",
        arguments: [
            (["fields", "--since", "garbage"], "'--since <since>'", "decodewatch fields"),
            (["fields", "--until", "garbage"], "'--until <until>'", "decodewatch fields"),
            (["fields", "--kind", "garbage"], "'--kind <kind>'", "decodewatch fields"),
            (["fields", "--limit", "0"], "--limit 0 must be a whole number from 1 to 1000.", "decodewatch fields"),
            (["fields", "--since", "1h", "--until", "2h"], "--since (", "decodewatch fields"),
            (["fields", "--endpoint", "posts"], "--endpoint 'posts' is not", "decodewatch fields"),
            (["drift", "--verdict", "backend"], "'--verdict <verdict>'", "decodewatch drift"),
            (["drift", "--limit", "5000"], "--limit 5000 must be", "decodewatch drift"),
            (["mute", group, "--for", "soon"], "'--for <duration>'", "decodewatch mute"),
            (["mute", group, "--for", "2 dayz"], "'--for <duration>'", "decodewatch mute"),
            (["mute", group, "--count", "0"], "--count 0 must be a whole number of failures", "decodewatch mute"),
            (["mute", group], "(--for 24h) or until a number of failures (--count 100)", "decodewatch mute"),
            (["mute", group, "--for", "1h", "--count", "2"], "(--for 24h)", "decodewatch mute"),
            (["digest", "--period", "30m"], "--period '30m' must be", "decodewatch digest"),
            (["check", "--app", "a", "--version", "1", "--since", "soon"], "'--since <since>'", "decodewatch check"),
            (
                ["alerts", "add", "--name", "r", "--when", "new", "--webhook", "hooks.slack.com/x"],
                "--webhook 'hooks.slack.com/x' is not an http(s) URL: give https://", "decodewatch alerts add"
            ),
        ])
    func valueError(arguments: [String], message: String, usage: String) throws {
        let result = try CLI.run(arguments + Self.nowhere)
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.hasPrefix("Error: "), "\(result.error)")
        #expect(result.error.contains(message), "\(result.error)")
        #expect(result.error.contains("Usage: \(usage) "), "\(result.error)")
        #expect(!result.error.contains("Usage: decodewatch <subcommand>"), "\(result.error)")
        #expect(!result.error.contains("for=") && !result.error.contains("count="), "\(result.error)")
    }

    @Test(
        "durations read as people write them, and only those",
        arguments: [
            ("2d", 172_800), ("2 days", 172_800), ("48h", 172_800), ("90m", 5400), ("90 minutes", 5400),
            ("1 week", 604_800), ("2w", 1_209_600), ("30s", 30), ("1 Hour", 3600), ("7  days", 604_800),
            ("2", nil), ("days", nil), ("0d", nil), ("-2d", nil), ("1.5h", nil), ("2 dayz", nil), ("101 years", nil),
            ("9999999999999w", nil),
        ] as [(String, Double?)])
    func durations(text: String, seconds: Double?) {
        #expect(DurationArgument(argument: text)?.seconds == seconds)
    }

    @Test("two words of a duration after an option are joined, and nothing else is")
    func joiningUnits() {
        #expect(
            DurationArgument.joiningUnits(["mute", "abc123", "--for", "2", "days"]) == [
                "mute", "abc123", "--for", "2 days",
            ])
        #expect(
            DurationArgument.joiningUnits(["mute", "--for", "2", "days", "abc123"]) == [
                "mute", "--for", "2 days", "abc123",
            ])
        #expect(
            DurationArgument.joiningUnits(["mute", "abc123", "--count", "2"]) == ["mute", "abc123", "--count", "2"])
        #expect(DurationArgument.joiningUnits(["x", "2", "days"]) == ["x", "2", "days"])
        #expect(DurationArgument.joiningUnits(["--for=2", "days"]) == ["--for=2", "days"])
    }

    @Test(
        "a duration is taken as people write it, typed as one argument or two",
        arguments: [
            (["--for", "2 days"], "for 2d"), (["--for", "2", "days"], "for 2d"), (["--for", "48h"], "for 2d"),
            (["--for", "1 week"], "for 7d"), (["--for", "90m"], "for 2h"),
        ])
    func muteDurations(arguments: [String], summary: String) async throws {
        try await CLI.withCollector(on: .sqlite) { db, port, session in
            _ = try await CLI.postExampleBatch(port: port, session: session)
            let group = try Self.firstGroup(db)
            let muted = try CLI.run(["mute", group] + arguments + db)
            #expect(muted.status == 0, "\(muted.error)")
            #expect(muted.output == "Muted \(group) \(summary).\n")
            // Through a collector: the CLI sends the short form every collector reads.
            let remote = try CLI.run(["mute", group] + arguments + ["--url", "http://127.0.0.1:\(port)"])
            #expect(remote.status == 0, "\(remote.error)")
            #expect(remote.output == "Muted \(group) \(summary).\n")
        }
    }

    @Test("a window in words reads the same as its short form, from the database and through a collector")
    func windowInWords() async throws {
        try await CLI.withCollector(on: .sqlite) { db, port, session in
            _ = try await CLI.postExampleBatch(port: port, session: session)
            for source in [db, ["--url", "http://127.0.0.1:\(port)"]] {
                let short = try CLI.run(["fields", "--format", "json", "--since", "100w"] + source)
                let words = try CLI.run(["fields", "--format", "json", "--since", "700 days"] + source)
                #expect(words.status == 0, "\(words.error)")
                let fromWords = try JSONDecoder().decode(FieldsSummary.self, from: Data(words.output.utf8))
                let fromShort = try JSONDecoder().decode(FieldsSummary.self, from: Data(short.output.utf8))
                #expect(fromWords.fields.map(\.group) == fromShort.fields.map(\.group))
                #expect(!fromWords.fields.isEmpty)
            }
        }
    }

    @Test(
        "an unknown subcommand suggests the nearest, with the usage of the command it was given to, exit 64",
        arguments: [
            (["feilds"], "Unknown subcommand 'feilds'; did you mean 'fields'?", "decodewatch <subcommand>"),
            (["srve", "--port", "0"], "Unknown subcommand 'srve'; did you mean 'serve'?", "decodewatch <subcommand>"),
            (["keys", "crate"], "Unknown subcommand 'crate'; did you mean 'create'?", "decodewatch keys <subcommand>"),
            (["xyzzy"], "Unknown subcommand 'xyzzy'; the subcommands are serve, fields,", "decodewatch <subcommand>"),
        ])
    func unknownSubcommand(arguments: [String], message: String, usage: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.hasPrefix("Error: \(message)"), "\(result.error)")
        #expect(result.error.contains("Usage: \(usage)"), "\(result.error)")
    }

    @Test("an unreachable collector is named, with the cause in words")
    func unreachableCollector() throws {
        let result = try CLI.run(["fields", "--url", "http://127.0.0.1:9"])
        #expect(result.status == 1)
        #expect(
            result.error.contains("Could not connect to the collector at http://127.0.0.1:9 (connection refused)"),
            "\(result.error)")
        #expect(!result.error.contains("-1004"), "\(result.error)")
    }

    @Test("an unreachable webhook is named without its secret, with the cause in words")
    func unreachableWebhook() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = ["--db", folder.appendingPathComponent("alerts.sqlite").path]
        let added = try CLI.run(
            ["alerts", "add", "--create", "--name", "r", "--when", "new", "--webhook", "http://127.0.0.1:9/secret"] + db
        )
        let id = try #require(added.output.split(separator: " ").first { $0.hasPrefix("rule_") }, "\(added.error)")
        let result = try CLI.run(["alerts", "test", String(id)] + db)
        #expect(result.status == 1)
        #expect(result.error.contains("The webhook http://127.0.0.1:9/…"), "\(result.error)")
        #expect(result.error.contains("(last: connection refused)"), "\(result.error)")
        #expect(!result.error.contains("secret") && !result.error.contains("-1004"), "\(result.error)")
    }

    @Test(
        "an id no rule, key or token has exits 1, like an unknown group",
        arguments: [
            ["alerts", "test", "rule_nope"], ["alerts", "remove", "rule_nope"], ["keys", "revoke", "key_nope"],
            ["tokens", "revoke", "tok_nope"], ["resolve", "0123456789ab"],
            ["contracts", "remove", "nope", "--app", "a"],
        ])
    func unknownID(command: [String]) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = ["--db", folder.appendingPathComponent("ids.sqlite").path]
        #expect(try CLI.run(["tokens", "create", "--create", "--name", "t"] + db).status == 0)
        let result = try CLI.run(command + db)
        #expect(result.status == 1, "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(!result.error.contains("Usage:"), "\(result.error)")
    }

    @Test("serve on a port in use names the port and --port, and creates no database")
    func portInUse() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let holder = try CLI.start(["serve", "--port", "0", "--db", folder.appendingPathComponent("a.sqlite").path])
        let port = try await holder.port()
        defer { if holder.process.isRunning { holder.process.terminate() } }
        let path = folder.appendingPathComponent("b.sqlite").path
        let result = try CLI.run(["serve", "--port", String(port), "--db", path])
        #expect(result.status == 1, "\(result.error)")
        #expect(
            result.error.contains(
                "port \(port) is in use; stop what holds it or choose another with --port."), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try await holder.terminate() == 0)
    }

    /// The id of the group with the most reports.
    static func firstGroup(_ db: [String]) throws -> String {
        let json = try CLI.run(["fields", "--format", "json", "--since", "100w"] + db)
        let summary = try JSONDecoder().decode(FieldsSummary.self, from: Data(json.output.utf8))
        return try #require(summary.fields.first?.group, "\(json.error)")
    }
}

import Foundation
import Testing

@Suite("Commands that only read or change stored data never create an SQLite file")
struct MissingDatabaseTests {
    @Test(
        "a mistyped --db fails, names the path and what creates a database, and leaves no file",
        arguments: [
            ["fields"], ["drift"], ["digest"], ["keys", "list"], ["tokens", "list"], ["contracts", "list"],
            ["alerts", "list"], ["keys", "revoke", "key_0000000000000000"], ["tokens", "revoke", "tok_0"],
            ["alerts", "remove", "rule"], ["alerts", "test", "rule"], ["contracts", "remove", "github", "--app", "a"],
            ["resolve", "0123456789ab"], ["mute", "0123456789ab", "--for", "1h"], ["unmute", "0123456789ab"],
        ])
    func readCommandRefuses(command: [String]) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let typo = folder.appendingPathComponent("typo.sqlite").path
        let result = try CLI.run(command + ["--db", typo])
        #expect(result.status != 0)
        #expect(result.error.contains("No database at \(typo)"), "\(result.error)")
        #expect(result.error.contains("`decodewatch serve --db \(typo)` creates one"), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: typo))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// The commands that add something, each with what it needs besides the store flags.
    static let adding: [[String]] = [
        ["keys", "create", "--app", "com.example.shop"], ["tokens", "create", "--name", "grafana"],
        ["alerts", "add", "--name", "r", "--when", "new", "--webhook", "https://hooks.example.com/x"],
        ["contracts", "import", ContractCommandTests.spec.path, "--app", "com.example.octo"],
    ]

    @Test(
        "a command that adds something refuses a missing file without --create, saying how to create it",
        arguments: adding)
    func addingCommandRefuses(command: [String]) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let typo = folder.appendingPathComponent("typo.sqlite").path
        let result = try CLI.run(command + ["--db", typo])
        #expect(result.status == 1, "\(result.error)")
        #expect(result.error.contains("No database at \(typo)"), "\(result.error)")
        #expect(result.error.contains("or add --create to create it with this command."), "\(result.error)")
        #expect(result.output.isEmpty, "\(result.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("with --create, a command that adds something creates the database", arguments: adding)
    func addingCommandCreates(command: [String]) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("new.sqlite").path
        let result = try CLI.run(command + ["--create", "--db", path])
        #expect(result.status == 0, "\(result.error)")
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try CLI.run([command[0], "list", "--db", path]).status == 0)
        // Once the file exists, adding needs no --create.
        #expect(try CLI.run(["tokens", "create", "--name", "again", "--db", path]).status == 0)
    }
}

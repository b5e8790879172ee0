import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

@testable import DecodeWatchCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `decodewatch login`, `logout` and `profiles` against a real `decodewatch serve`, and the remote commands using the
/// stored profile (docs/cli.md#login-and-profiles). Each test keeps its profiles in a config folder of its own.
@Suite("login, logout, profiles and the commands that use a stored profile")
struct LoginCommandTests {
    static let window = CLI.exampleWindow

    /// A config folder of its own (`XDG_CONFIG_HOME`), removed at the end of the test.
    final class ConfigHome {
        let folder: URL
        init() throws { folder = try CLI.temporaryFolder() }
        deinit { try? FileManager.default.removeItem(at: folder) }

        /// The environment that points the CLI at this folder, with `more` on top.
        func environment(_ more: [String: String] = [:]) -> [String: String] {
            ["XDG_CONFIG_HOME": folder.path].merging(more) { $1 }
        }

        /// The profiles file the CLI writes.
        var file: URL { folder.appendingPathComponent("decodewatch/config") }

        /// The stored profiles, as the CLI reads them.
        func stored() throws -> ProfileConfig {
            try JSONDecoder().decode(ProfileConfig.self, from: Data(contentsOf: file))
        }

        /// `decodewatch login --url URL` with the token on standard input, as `echo "$T" | decodewatch login` sends it.
        func login(port: Int, token: String, _ more: [String] = []) throws -> CLI.Result {
            try CLI.run(
                ["login", "--url", "http://127.0.0.1:\(port)"] + more, environment: environment(), input: token + "\n")
        }
    }

    /// Makes a read token in the collector's database.
    /// - Returns: the secret and its id.
    static func makeToken(_ db: [String], name: String, scope: String) throws -> (secret: String, id: String) {
        let created = try CLI.run(["tokens", "create", "--name", name, "--scope", scope] + db)
        let secret = try #require(created.output.split(separator: "\n").first { $0.hasPrefix("dwr_") })
        let id = try #require(created.error.range(of: #"tok_[0-9a-f]+"#, options: .regularExpression))
        return (String(secret), String(created.error[id]))
    }

    /// The file's permission bits.
    static func mode(of url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test("login stores a checked token with mode 0600; fields with no flags asks its collector and says so on stderr")
    func loginThenFieldsUsesTheProfile() async throws {
        try await CLI.withExampleCollector(on: .sqlite) { db, port, session in
            let token = try Self.makeToken(db, name: "alice", scope: "triage")
            let home = try ConfigHome()

            let login = try home.login(port: port, token: token.secret)
            #expect(login.status == 0, "\(login.error)")
            #expect(
                login.output
                    == "Logged in to http://127.0.0.1:\(port) as alice (scope triage); profile 'default' saved in "
                    + "\(home.file.path).\n")
            #expect(try Self.mode(of: home.file) == 0o600)
            #expect(try Self.mode(of: home.file.deletingLastPathComponent()) == 0o700)
            let stored = try home.stored()
            #expect(stored.defaultProfile == "default")
            #expect(
                stored.profiles["default"]
                    == ProfileConfig.Profile(url: "http://127.0.0.1:\(port)", token: token.secret, tokenID: token.id))

            let remote = try CLI.run(["fields", "--format", "json"] + Self.window, environment: home.environment())
            #expect(remote.status == 0, "\(remote.error)")
            #expect(remote.error == "Using collector http://127.0.0.1:\(port) (profile 'default').\n")
            let local = try CLI.run(["fields", "--format", "json"] + db + Self.window)
            #expect(remote.output == local.output)
            #expect(try JSONDecoder().decode(FieldsSummary.self, from: Data(remote.output.utf8)).fields.count == 3)

            for result in [login, remote] {
                #expect(!result.output.contains(token.secret) && !result.error.contains(token.secret))
            }
        }
    }

    @Test("GET /v1/token names the token's id, name and scope; an open collector answers null ids and admin")
    func tokenEndpoint() async throws {
        try await CLI.withCollector(on: .sqlite) { db, port, session in
            func identity(_ token: String?) async throws -> (Int, CollectorClient.TokenIdentity?) {
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/token")!)
                if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
                let (body, response) = try await session.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                return (status, try? JSONDecoder().decode(CollectorClient.TokenIdentity.self, from: body))
            }
            let (openStatus, open) = try await identity(nil)
            #expect(openStatus == 200 && open?.id == nil && open?.name == nil && open?.scope == "admin")
            let token = try Self.makeToken(db, name: "grafana", scope: "read")
            // The collector remembers for about 2 seconds that it was open; ask until it knows the token, for 10 s.
            var (status, known) = try await identity(token.secret)
            try await eventually(every: .milliseconds(100)) {
                (status, known) = try await identity(token.secret)
                return known?.id != nil
            }
            #expect(status == 200 && known?.id == token.id && known?.name == "grafana" && known?.scope == "read")
            #expect(try await identity("dwr_unknown").0 == 401)
            #expect(try await identity(nil).0 == 401)
        }
    }

    @Test("unknown, revoked or empty tokens and an unreachable collector store nothing; login takes no token in argv")
    func refusedLoginsStoreNothing() async throws {
        try await CLI.withCollector(on: .sqlite) { db, port, _ in
            let revoked = try Self.makeToken(db, name: "old", scope: "read")
            #expect(try CLI.run(["tokens", "revoke", revoked.id] + db).status == 0)
            let home = try ConfigHome()
            for secret in [revoked.secret, "dwr_unknown"] {
                let refused = try home.login(port: port, token: secret)
                #expect(refused.status == 1)
                #expect(
                    refused.error.contains("refused the read token: it is unknown or revoked. No profile was stored."),
                    "\(refused.error)")
            }
            let empty = try home.login(port: port, token: "  ")
            #expect(empty.status == 64)
            #expect(empty.error.contains("No token was given"), "\(empty.error)")
            let unreachable = try CLI.run(
                ["login", "--url", "http://127.0.0.1:9"], environment: home.environment(), input: "dwr_x\n")
            #expect(unreachable.status == 1)
            #expect(unreachable.error.contains("Could not connect to the collector at http://127.0.0.1:9"))
            let onCommandLine = try CLI.run(
                ["login", "--url", "http://127.0.0.1:\(port)", "--token", "dwr_x"], environment: home.environment())
            #expect(onCommandLine.status == 64)
            #expect(onCommandLine.error.contains("never from the command line"), "\(onCommandLine.error)")
            #expect(!FileManager.default.fileExists(atPath: home.file.path))
        }
    }

    @Test(
        "--profile and DECODEWATCH_PROFILE pick a profile; an unknown one names the known ones; --db and DECODEWATCH_URL win"
    )
    func choosingAProfile() async throws {
        try await CLI.withExampleCollector(on: .sqlite) { productionDB, production, session in
            try await CLI.withCollector(on: .sqlite) { stagingDB, staging, _ in
                let home = try ConfigHome()
                #expect(try home.login(port: production, token: "dwr_any").status == 0)
                let second = try home.login(port: staging, token: "dwr_any", ["--profile", "staging"])
                #expect(second.status == 0, "\(second.error)")
                #expect(second.output.contains("The default profile stays 'default'"), "\(second.output)")
                #expect(try home.stored().defaultProfile == "default")

                func fields(_ arguments: [String], _ environment: [String: String] = [:]) throws -> CLI.Result {
                    try CLI.run(
                        ["fields", "--format", "json"] + arguments + Self.window,
                        environment: home.environment(environment))
                }
                let productionFields = try fields(productionDB).output
                let stagingFields = try fields(stagingDB).output
                #expect(productionFields != stagingFields)

                let byDefault = try fields([])
                #expect(byDefault.output == productionFields)
                #expect(byDefault.error.contains("(profile 'default')"))
                for picked in [
                    try fields(["--profile", "staging"]), try fields([], ["DECODEWATCH_PROFILE": "staging"]),
                ] {
                    #expect(picked.status == 0, "\(picked.error)")
                    #expect(picked.output == stagingFields)
                    #expect(picked.error == "Using collector http://127.0.0.1:\(staging) (profile 'staging').\n")
                }
                let flagBeatsVariable = try fields(["--profile", "default"], ["DECODEWATCH_PROFILE": "staging"])
                #expect(flagBeatsVariable.output == productionFields)

                let typo = try fields(["--profile", "stagign"])
                #expect(typo.status == 1)
                #expect(
                    typo.error.contains(
                        "--profile names the profile 'stagign', which does not exist: the profiles in "
                            + "\(home.file.path) are 'staging', 'default'."), "\(typo.error)")
                let fromVariable = try fields([], ["DECODEWATCH_PROFILE": "defualt"])
                #expect(fromVariable.status == 1)
                #expect(fromVariable.error.contains("are 'default', 'staging'"), "\(fromVariable.error)")

                let database = try fields(stagingDB)
                #expect(database.output == stagingFields && !database.error.contains("Using collector"))
                let address = try fields([], ["DECODEWATCH_URL": "http://127.0.0.1:\(staging)"])
                #expect(address.output == stagingFields && !address.error.contains("Using collector"))
                let conflict = try fields(["--profile", "staging"] + productionDB)
                #expect(conflict.status == 64)
                #expect(conflict.error.contains("exclude each other"), "\(conflict.error)")
            }
        }
    }

    @Test(
        "profiles lists names, addresses and the default, never a token; logout forgets one; a readable file is warned of"
    )
    func profilesAndLogout() async throws {
        try await CLI.withCollector(on: .sqlite) { db, port, _ in
            let home = try ConfigHome()
            let none = try CLI.run(["profiles"], environment: home.environment())
            #expect(none.status == 0 && none.output.contains("decodewatch login --url"), "\(none.output)")
            let token = try Self.makeToken(db, name: "alice", scope: "read")
            #expect(try home.login(port: port, token: token.secret).status == 0)
            #expect(try home.login(port: port, token: token.secret, ["--profile", "staging"]).status == 0)

            let table = try CLI.run(["profiles"], environment: home.environment())
            #expect(
                table.output
                    == TextTable.render([
                        ["PROFILE", "URL", "DEFAULT"], ["default", "http://127.0.0.1:\(port)", "*"],
                        ["staging", "http://127.0.0.1:\(port)", ""],
                    ]))
            let json = try CLI.run(["profiles", "--format", "json"], environment: home.environment())
            struct Listing: Decodable, Equatable {
                let name: String
                let url: String
                let `default`: Bool
            }
            #expect(
                try JSONDecoder().decode([Listing].self, from: Data(json.output.utf8)) == [
                    Listing(name: "default", url: "http://127.0.0.1:\(port)", default: true),
                    Listing(name: "staging", url: "http://127.0.0.1:\(port)", default: false),
                ])
            for listed in [table, json] { #expect(!listed.output.contains(token.secret)) }

            #expect(chmod(home.file.path, 0o644) == 0)
            let exposed = try CLI.run(["profiles"], environment: home.environment())
            #expect(exposed.error.contains("other users may read it (mode 644): run `chmod 600"), "\(exposed.error)")

            let unknown = try CLI.run(["logout", "--profile", "stage"], environment: home.environment())
            #expect(unknown.status == 1)
            #expect(unknown.error.contains("are 'staging', 'default'"), "\(unknown.error)")
            let loggedOut = try CLI.run(["logout"], environment: home.environment())
            #expect(loggedOut.status == 0, "\(loggedOut.error)")
            #expect(loggedOut.output.contains("profile 'default' removed"), "\(loggedOut.output)")
            #expect(loggedOut.output.contains("decodewatch tokens revoke \(token.id)"), "\(loggedOut.output)")
            #expect(loggedOut.output.contains("No profile is the default now"), "\(loggedOut.output)")
            #expect(try Self.mode(of: home.file) == 0o600)
            let stored = try home.stored()
            #expect(stored.defaultProfile == nil && stored.profiles.keys.sorted() == ["staging"])
            let forgotten = try CLI.run(["fields", "--profile", "default"], environment: home.environment())
            #expect(forgotten.status == 1 && forgotten.error.contains("are 'staging'"), "\(forgotten.error)")
        }
    }
}

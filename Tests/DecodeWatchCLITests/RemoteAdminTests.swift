import DecodeWatchStore
import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Keys and tokens managed through a running collector with an admin token, and who did what.
@Suite("Remote admin and actors")
struct RemoteAdminTests {
    /// The secret a `create` printed on standard output.
    static func secret(_ result: CLI.Result, prefix: String) throws -> String {
        try #require(result.output.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init))
    }

    /// The credentials a `list --format json` printed.
    static func credentials(_ result: CLI.Result) throws -> [Credential] {
        try JSONDecoder().decode([Credential].self, from: Data(result.output.utf8))
    }

    @Test(
        "an admin token makes, lists and revokes keys and tokens through the collector, as on the database, with who",
        arguments: Storage.allCases)
    func keysAndTokensThroughTheCollector(storage: Storage) async throws {
        try await CLI.withCollector(on: storage) { db, port, session in
            let local = ["USER": "alice"]
            let admin = try Self.secret(
                try CLI.run(["tokens", "create", "--name", "ops", "--scope", "admin"] + db, environment: local),
                prefix: "dwr_")
            let remote = ["--url", "http://127.0.0.1:\(port)", "--token", admin]

            let made = try CLI.run(["keys", "create", "--app", "com.example.octo", "--name", "ios"] + remote)
            #expect(made.status == 0, "\(made.error)")
            let key = try Self.secret(made, prefix: "dwk_")
            #expect(made.output == key + "\n")
            #expect(made.error.contains("Created ingest key key_"), "\(made.error)")
            // The list is the database's, byte for byte, and never shows a secret.
            let listed = try CLI.run(["keys", "list", "--format", "json"] + remote)
            #expect(listed.status == 0, "\(listed.error)")
            #expect(listed.output == (try CLI.run(["keys", "list", "--format", "json"] + db)).output)
            #expect(!listed.output.contains(key))
            let stored = try #require(try Self.credentials(listed).first)
            #expect(stored.app == "com.example.octo" && stored.name == "ios" && stored.createdBy == "ops")
            let table = try CLI.run(["keys", "list"] + remote)
            #expect(table.output.contains("BY") && table.output.contains(" ops "), "\(table.output)")

            // The key made remotely is the one ingest now wants.
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/reports")!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
            request.httpBody = Data(#"{"batch_id":"b1","app":{"id":"com.example.octo"},"reports":[]}"#.utf8)
            let (_, answer) = try await session.data(for: request)
            #expect((answer as? HTTPURLResponse)?.statusCode == 202)

            let viewer = try CLI.run(["tokens", "create", "--name", "viewer"] + remote)
            #expect(viewer.status == 0, "\(viewer.error)")
            let viewerToken = try Self.secret(viewer, prefix: "dwr_")
            let triage = try Self.secret(
                try CLI.run(["tokens", "create", "--name", "oncall", "--scope", "triage"] + remote), prefix: "dwr_")
            var tokens = try Self.credentials(try CLI.run(["tokens", "list", "--format", "json"] + remote))
            #expect(tokens.map(\.name) == ["ops", "viewer", "oncall"])
            #expect(tokens.map(\.scope) == [.admin, .read, .triage])
            #expect(tokens.map(\.createdBy) == ["local:alice", "ops", "ops"])

            // Read and triage tokens may not manage keys or tokens: the collector's sentence, exit 1.
            let asReader = try CLI.run(["keys", "list", "--url", "http://127.0.0.1:\(port)", "--token", viewerToken])
            #expect(asReader.status == 1)
            #expect(
                asReader.error.contains(
                    "Listing ingest keys needs a token with the 'admin' scope; this token has 'read'."),
                "\(asReader.error)")
            let asTriage = try CLI.run(
                ["tokens", "create", "--name", "x", "--url", "http://127.0.0.1:\(port)", "--token", triage])
            #expect(asTriage.status == 1)
            #expect(asTriage.error.contains("this token has 'triage'"), "\(asTriage.error)")
            #expect(asTriage.output.isEmpty)

            let viewerID = try #require(tokens.first { $0.name == "viewer" }?.id)
            let revoked = try CLI.run(["tokens", "revoke", viewerID] + remote)
            #expect(revoked.status == 0 && revoked.output == "Revoked \(viewerID).\n", "\(revoked.error)")
            tokens = try Self.credentials(try CLI.run(["tokens", "list", "--format", "json"] + db))
            let gone = try #require(tokens.first { $0.id == viewerID })
            #expect(gone.revokedAt != nil && gone.revokedBy == "ops")
            let unknown = try CLI.run(["keys", "revoke", "key_0000000000000000"] + remote)
            #expect(unknown.status == 1)
            #expect(unknown.error.contains("No ingest key has the id 'key_0000000000000000'"), "\(unknown.error)")
            let create = try CLI.run(["keys", "create", "--app", "a", "--create"] + remote)
            #expect(create.status == 64)
            #expect(create.error.contains("--create makes a missing SQLite file"), "\(create.error)")
        }
    }

    @Test("the keys and tokens API refuses bad bodies with a sentence, and an open collector does not manage them")
    func apiRefusals() async throws {
        try await CLI.withCollector(on: .sqlite) { db, port, session in
            func post(_ path: String, _ body: String, token: String?) async throws -> (Int, String) {
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
                request.httpBody = Data(body.utf8)
                let (data, answer) = try await session.data(for: request)
                return ((answer as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
            }
            let (openStatus, openBody) = try await post("/v1/tokens", #"{"name":"me","scope":"admin"}"#, token: nil)
            #expect(openStatus == 403)
            #expect(openBody.contains("even while this collector has no read tokens"), "\(openBody)")

            let admin = try Self.secret(
                try CLI.run(["tokens", "create", "--name", "ops", "--scope", "admin"] + db), prefix: "dwr_")
            // The collector notices the first token within its cache's 2 seconds.
            let collector = TestHTTPClient(port: port, session: session)
            let accepted = try await eventually(within: .seconds(15), every: .milliseconds(200)) {
                try await collector.get("/v1/tokens", token: admin).status == 200
            }
            #expect(accepted, "the admin token was not accepted in 15 seconds")
            if !accepted { return }
            let refusals: [(String, String, String)] = [
                ("/v1/tokens", "[1]", "The body must be a JSON object"),
                ("/v1/tokens", #"{"nmae":"x"}"#, "Unknown member 'nmae'; did you mean 'name'?"),
                ("/v1/tokens", #"{"scope":"read"}"#, "'name' is required"),
                (
                    "/v1/tokens", #"{"name":"x","scope":"owner"}"#,
                    "Unknown scope 'owner': use 'read', 'triage' or 'admin'."
                ),
                ("/v1/tokens", #"{"name":7}"#, "'name' must be a string of 1–200 characters."),
                ("/v1/keys", #"{"name":"ios"}"#, "'app' is required"),
                ("/v1/keys", #"{"app":"a","scope":"admin"}"#, "Unknown member 'scope'"),
            ]
            for (path, body, message) in refusals {
                let (status, answer) = try await post(path, body, token: admin)
                #expect(status == 400 && answer.contains("invalid_body"), "\(body): \(answer)")
                #expect(answer.contains(message), "\(body): \(answer)")
            }
            let tokens = try Self.credentials(try CLI.run(["tokens", "list", "--format", "json"] + db))
            #expect(tokens.map(\.name) == ["ops"])
        }
    }

    @Test("every decision's history names who took it: the token's name through the API, local:<user> on the database")
    func decisionsNameTheirActor() async throws {
        try await CLI.withExampleCollector(on: .sqlite) { db, port, session in
            let oncall = try Self.secret(
                try CLI.run(["tokens", "create", "--name", "oncall", "--scope", "triage"] + db), prefix: "dwr_")
            let fields = try CLI.run(["fields", "--format", "json"] + db + CLI.exampleWindow)
            struct Listed: Decodable { struct Field: Decodable { let group: String }; let fields: [Field] }
            let group = try #require(
                try JSONDecoder().decode(Listed.self, from: Data(fields.output.utf8)).fields.first?.group)
            let remote = ["--url", "http://127.0.0.1:\(port)", "--token", oncall]
            #expect(try CLI.run(["mute", group, "--for", "1h"] + remote).status == 0)
            #expect(try CLI.run(["unmute", group] + db, environment: ["USER": "alice"]).status == 0)

            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/groups/\(group)")!)
            request.setValue("Bearer \(oncall)", forHTTPHeaderField: "Authorization")
            let (data, _) = try await session.data(for: request)
            struct Decisions: Decodable {
                struct Event: Decodable { let action: String; let actor: String? }
                let history: [Event]
            }
            let history = try JSONDecoder().decode(Decisions.self, from: data).history
            #expect(history.map(\.action) == ["mute", "unmute"])
            #expect(history.map(\.actor) == ["oncall", "local:alice"])

            var page = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/groups/\(group)")!)
            page.setValue("Bearer \(oncall)", forHTTPHeaderField: "Authorization")
            let (html, _) = try await session.data(for: page)
            let text = String(decoding: html, as: UTF8.self)
            #expect(text.contains(#"<span class="actor">by oncall</span>"#))
            #expect(text.contains(#"<span class="actor">by local:alice</span>"#))
        }
    }
}

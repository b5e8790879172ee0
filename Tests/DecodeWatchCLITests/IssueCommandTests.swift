import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("decodewatch issue create, and the dashboard's GitHub button, against a stand-in of GitHub's REST API")
struct IssueCommandTests {
    /// GitHub's answer to `POST /repos/{owner}/{repo}/issues`, trimmed to the members DecodeWatch reads and a few more.
    static func created(number: Int) -> TestReceiver.Reply {
        TestReceiver.Reply.status(
            201, headers: ["Content-Type": "application/json; charset=utf-8"],
            body: """
                {"id":1000\(number),"number":\(number),"state":"open","title":"…",\
                "url":"https://api.github.com/repos/octo/shop-api/issues/\(number)",\
                "html_url":"https://github.com/octo/shop-api/issues/\(number)"}
                """)
    }

    /// A refusal in GitHub's error shape.
    static func refusal(_ status: Int, _ body: String) -> TestReceiver.Reply {
        TestReceiver.Reply.status(status, headers: ["Content-Type": "application/json; charset=utf-8"], body: body)
    }

    /// What `GET /v1/groups/{group}` answers about the issue and the history.
    struct Decisions: Decodable {
        struct Event: Decodable {
            let action: String
            let detail: String?
            let actor: String?
        }
        let issueURL: String?
        let history: [Event]

        enum CodingKeys: String, CodingKey {
            case history
            case issueURL = "issue_url"
        }
    }

    /// The secret the token file holds; no output may show it.
    static let token = "ghp_decodewatchTestToken0123456789"

    /// Writes the token file into `folder`.
    static func tokenFile(in folder: URL) throws -> String {
        let file = folder.appendingPathComponent("github-token")
        try (token + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The typeMismatch group of the example batch, as `fields --format json` lists it.
    static func typeMismatchGroup(_ db: [String]) throws -> FieldSummary {
        let fields = try JSONDecoder().decode(
            FieldsSummary.self,
            from: Data(try CLI.run(["fields", "--format", "json"] + db + CLI.exampleWindow).output.utf8))
        return try #require(fields.fields.first { $0.kind == .typeMismatch })
    }

    /// `GET /v1/groups/{group}`, with a token when given.
    static func decisions(_ group: String, port: Int, token: String? = nil) async throws -> Decisions {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/groups/\(group)")!)
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, _) = try await URLSession(configuration: .ephemeral).data(for: request)
        return try JSONDecoder().decode(Decisions.self, from: data)
    }

    @Test(
        "opens one issue with the report as body, the token as Bearer and GitHub's API version; stores its address, which the API shows and the history names who opened; a second run opens nothing and prints it",
        arguments: Storage.allCases)
    func opensOneIssueOnce(storage: Storage) async throws {
        try await CLI.withExampleCollector(on: storage) { db, port, session in
            let field = try Self.typeMismatchGroup(db)
            let github = try await TestReceiver.webhook(replies: [Self.created(number: 7)])
            defer { github.cancel() }
            let folder = try CLI.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let arguments =
                [
                    "issue", "create", String(field.group.prefix(12)), "--github", "octo/shop-api",
                    "--github-token-file", try Self.tokenFile(in: folder), "--github-api-url",
                    "http://127.0.0.1:\(github.port)", "--label", "decodewatch", "--public-url",
                    "https://decodewatch.example.com",
                ] + db
            let url = "https://github.com/octo/shop-api/issues/7"

            let first = try CLI.run(arguments, environment: ["USER": "alice"])
            #expect(first.status == 0, "\(first.error)")
            #expect(first.output == url + "\n")
            #expect(first.error == "Opened a GitHub issue for group \(field.group) in octo/shop-api.\n")
            let request = try #require(github.requests.first)
            #expect(github.requests.count == 1)
            #expect(request.requestLine == "POST /repos/octo/shop-api/issues HTTP/1.1")
            #expect(request.headers["authorization"] == "Bearer \(Self.token)")
            #expect(request.headers["accept"] == "application/vnd.github+json")
            #expect(request.headers["x-github-api-version"] == "2022-11-28")
            #expect(request.headers["user-agent"]?.hasPrefix("decodewatch/") == true)
            struct Draft: Decodable {
                let title: String
                let body: String
                let labels: [String]?
            }
            let draft = try JSONDecoder().decode(Draft.self, from: request.body)
            #expect(draft.title.hasPrefix("\(field.endpoint): \(field.path) "), "\(draft.title)")
            #expect(draft.title.count < 256)
            #expect(draft.body.hasPrefix("### \(draft.title)\n"), "\(draft.body)")
            #expect(draft.body.contains("| Failure | `typeMismatch`"), "\(draft.body)")
            #expect(draft.body.contains("Reported by DecodeWatch: app `com.example.octo`, group `\(field.group)`."))
            #expect(draft.body.contains("Dashboard: <https://decodewatch.example.com/groups/\(field.group)>"))
            #expect(draft.labels == ["decodewatch"])

            let stored = try await Self.decisions(field.group, port: port)
            #expect(stored.issueURL == url)
            let opened = try #require(stored.history.last)
            #expect(opened.action == "issue" && opened.detail == url && opened.actor == "local:alice")

            let second = try CLI.run(arguments)
            #expect(second.status == 0, "\(second.error)")
            #expect(second.output == url + "\n")
            #expect(second.error == "Group \(field.group) already has a GitHub issue; none was opened.\n")
            #expect(github.requests.count == 1)
            for result in [first, second] { #expect(!(result.output + result.error).contains(Self.token)) }
        }
    }

    @Test("each refusal by GitHub, and an unreachable API, is one sentence on standard error, exit 1, nothing stored")
    func refusalsAreSentences() async throws {
        try await CLI.withExampleCollector(on: .sqlite) { db, port, session in
            let field = try Self.typeMismatchGroup(db)
            let folder = try CLI.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let tokenFile = try Self.tokenFile(in: folder)
            let docs = #""documentation_url":"https://docs.github.com/rest""#
            let cases: [(TestReceiver.Reply, String)] = [
                (
                    Self.refusal(401, #"{"message":"Bad credentials",\#(docs),"status":"401"}"#),
                    "GitHub refused the token (401: Bad credentials): it is wrong, expired or revoked."
                ),
                (
                    Self.refusal(404, #"{"message":"Not Found",\#(docs),"status":"404"}"#),
                    "GitHub has no repository octo/shop-api that this token can see (404: Not Found)"
                ),
                (
                    Self.refusal(
                        422,
                        #"{"message":"Validation Failed","errors":[{"resource":"Issue","code":"missing_field","field":"title"}],\#(docs),"status":"422"}"#
                    ),
                    "GitHub refused the issue as invalid (422: Validation Failed — Issue.title missing_field)"
                ),
                (
                    Self.refusal(403, #"{"message":"Resource not accessible by personal access token",\#(docs)}"#),
                    "The token may not open issues in octo/shop-api (403: Resource not accessible by personal access token)"
                ),
                (
                    Self.refusal(410, #"{"message":"Issues are disabled for this repo",\#(docs)}"#),
                    "Issues are turned off in octo/shop-api (410: Issues are disabled for this repo)"
                ),
            ]
            for (answer, sentence) in cases {
                let github = try await TestReceiver.webhook(replies: [answer])
                defer { github.cancel() }
                let result = try CLI.run(
                    [
                        "issue", "create", field.group, "--github", "octo/shop-api", "--github-token-file", tokenFile,
                        "--github-api-url", "http://127.0.0.1:\(github.port)",
                    ] + db)
                #expect(result.status == 1)
                #expect(result.output.isEmpty)
                #expect(result.error.contains(sentence), "\(result.error)")
                #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
                #expect(!result.error.contains(Self.token))
                #expect(github.requests.count == 1)
            }
            let gone = try await TestReceiver.webhook(replies: [])
            await gone.stop()
            let unreachable = try CLI.run(
                [
                    "issue", "create", field.group, "--github", "octo/shop-api", "--github-api-url",
                    "http://127.0.0.1:\(gone.port)",
                ] + db,
                environment: ["GITHUB_TOKEN": Self.token])
            #expect(unreachable.status == 1)
            #expect(
                unreachable.error.contains(
                    "Could not reach GitHub's API at http://127.0.0.1:\(gone.port) (connection refused)"),
                "\(unreachable.error)")
            let stored = try await Self.decisions(field.group, port: port)
            #expect(stored.issueURL == nil)
            #expect(!stored.history.contains { $0.action == "issue" })
        }
    }

    @Test(
        "a repository not OWNER/REPO, a missing token and an unreadable token file are usage errors (64)",
        arguments: [
            (["--github", "octo"], ["GITHUB_TOKEN": "t"], 64, "--github 'octo' must be OWNER/REPO"),
            (["--github", "octo/shop-api"], ["GITHUB_TOKEN": ""], 64, "No GitHub token: set GITHUB_TOKEN"),
            (
                ["--github", "octo/shop-api", "--github-token-file", "/nonexistent/token"], [:], 64,
                "Cannot read the GitHub token file /nonexistent/token"
            ),
        ])
    func usageErrors(flags: [String], environment: [String: String], status: Int, sentence: String) throws {
        try CLI.withDatabase(on: .sqlite) { _, db in
            let result = try CLI.run(["issue", "create", "abcdef"] + flags + db, environment: environment)
            #expect(Int(result.status) == status)
            #expect(result.error.contains(sentence), "\(result.error)")
        }
    }

    @Test("a group no one has exits 1 with a sentence, and nothing is sent to GitHub")
    func unknownGroup() async throws {
        try await CLI.withDatabase(on: .sqlite) { _, db in
            #expect(try CLI.run(["keys", "create", "--create", "--app", "com.example.shop"] + db).status == 0)
            let github = try await TestReceiver.webhook(replies: [])
            defer { github.cancel() }
            let result = try CLI.run(
                [
                    "issue", "create", "abcdef", "--github", "octo/shop-api", "--github-api-url",
                    "http://127.0.0.1:\(github.port)",
                ] + db,
                environment: ["GITHUB_TOKEN": Self.token])
            #expect(result.status == 1)
            #expect(result.error.contains("No group has the id 'abcdef'"), "\(result.error)")
            #expect(github.requests.isEmpty)
        }
    }

    @Test(
        "the dashboard offers a triage token the button, which opens the issue and links it; a read token sees no button and its forged post is refused 403; a GitHub refusal is the page's sentence, not a 500"
    )
    func dashboardButton() async throws {
        try await CLI.withDatabase(on: .sqlite) { folder, db in
            let github = try await TestReceiver.webhook(
                replies: [Self.refusal(401, #"{"message":"Bad credentials"}"#), Self.created(number: 12)])
            defer { github.cancel() }
            let server = try CLI.start(
                [
                    "serve", "--port", "0", "--github-repo", "octo/shop-api", "--github-token-file",
                    try Self.tokenFile(in: folder), "--github-api-url", "http://127.0.0.1:\(github.port)",
                ] + db)
            let port = try await server.port()
            let browser = URLSession(configuration: .ephemeral, delegate: RedirectRefusal(), delegateQueue: nil)
            defer { browser.invalidateAndCancel() }
            do {
                #expect(try await CLI.postExampleBatch(port: port, session: browser).status == 202)
                let field = try Self.typeMismatchGroup(db)
                let reader = try RemoteAdminTests.secret(
                    try CLI.run(["tokens", "create", "--name", "viewer"] + db), prefix: "dwr_")
                let triage = try RemoteAdminTests.secret(
                    try CLI.run(["tokens", "create", "--name", "oncall", "--scope", "triage"] + db), prefix: "dwr_")
                let csrf = String(repeating: "c", count: 32)
                func send(_ method: String, token: String) async throws -> (Int, String) {
                    let path = method == "GET" ? "/groups/\(field.group)" : "/groups/\(field.group)/issue"
                    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
                    request.httpMethod = method
                    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                    request.setValue("dw_csrf=\(csrf)", forHTTPHeaderField: "Cookie")
                    if method == "POST" {
                        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
                        request.httpBody = Data("csrf=\(csrf)".utf8)
                    }
                    let (data, response) = try await browser.data(for: request)
                    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
                }

                let (readStatus, readPage) = try await send("GET", token: reader)
                #expect(readStatus == 200)
                #expect(!readPage.contains("Open a GitHub issue"))
                let (forgedStatus, forged) = try await send("POST", token: reader)
                #expect(forgedStatus == 403)
                #expect(forged.contains("needs a token with the &#39;triage&#39; scope"), "\(forged)")
                #expect(github.requests.isEmpty)

                let (_, triagePage) = try await send("GET", token: triage)
                #expect(triagePage.contains("Open a GitHub issue"))
                let (refusedStatus, refused) = try await send("POST", token: triage)
                #expect(refusedStatus == 502)
                #expect(refused.contains("GitHub refused the token (401: Bad credentials)"), "\(refused)")
                #expect(try await Self.decisions(field.group, port: port, token: triage).issueURL == nil)

                let (openedStatus, _) = try await send("POST", token: triage)
                #expect(openedStatus == 303)
                #expect(github.requests.count == 2)
                #expect(github.requests.last?.headers["authorization"] == "Bearer \(Self.token)")
                let url = "https://github.com/octo/shop-api/issues/12"
                let (_, linked) = try await send("GET", token: triage)
                #expect(linked.contains("<a href=\"\(url)\">\(url)</a>"), "\(linked)")
                #expect(!linked.contains("Open a GitHub issue"))
                let decisions = try await Self.decisions(field.group, port: port, token: triage)
                #expect(decisions.issueURL == url)
                #expect(decisions.history.last?.actor == "oncall")
                #expect(!server.readLog().contains(Self.token))
            } catch {
                _ = try? await server.terminate()
                throw error
            }
            #expect(try await server.terminate() == 0)
        }
    }
}

/// Refuses every redirect, so that a test sees the dashboard's 303 itself.
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The release check end to end: compressed batches of two versions into `decodewatch serve`, then
/// `GET /v1/check` and `decodewatch check` judging them (docs/api.md#release-check, docs/cli.md#check).
@Suite("Release check")
struct CheckCommandTests {
    static let app = "com.example.shop"

    /// A batch of one version: 2000 decodes of `GET /v2/posts/{id}` and `failures` reports per path, an hour ago.
    static func batch(version: String, failures: [String: Int]) throws -> Data {
        let occurred = RFC3339Text.now(minus: 3600)
        let reports = failures.sorted { $0.key < $1.key }.map { path, count -> [String: Any] in
            [
                "occurred_at": occurred, "endpoint": "GET /v2/posts/42", "path": ["results", 0, path],
                "kind": path == "author" ? "typeMismatch" : "keyNotFound", "count": count,
            ]
        }
        return try JSONSerialization.data(withJSONObject: [
            "batch_id": UUID().uuidString, "app": ["id": app, "version": version],
            "decodes": [["endpoint": "GET /v2/posts/7", "count": 2000]], "reports": reports,
        ])
    }

    /// `GET /v1/check` with a query string.
    static func check(_ query: String, port: Int, session: URLSession) async throws -> HTTPAnswer {
        try await TestHTTPClient(port: port, session: session).get("/v1/check?\(query)")
    }

    /// `GET /v1/check` with a query string, answered 200 with a verdict.
    static func verdict(_ query: String, port: Int, session: URLSession) async throws -> ReleaseVerdict {
        let answer = try await check(query, port: port, session: session)
        #expect(answer.status == 200, "\(answer.text)")
        return try answer.decoded()
    }

    @Test("two versions ingested compressed: the API's verdicts, and the CLI's exit codes and formats")
    func releaseCheck() async throws {
        try await CLI.withCollector(on: .sqlite) { db, port, session in
            // 5.2.0: title fails 0.5 %. 5.3.0: title 2 % (4× 5.2.0), author 1.5 % and new, body 0.1 %.
            let collector = TestHTTPClient(port: port, session: session)
            #expect(
                try await collector.post(batch: Self.batch(version: "5.2.0", failures: ["title": 10]), encoding: "gzip")
                    .status == 202)
            #expect(
                try await collector.post(
                    batch: Self.batch(version: "5.3.0", failures: ["title": 40, "author": 30, "body": 2]),
                    encoding: "deflate"
                ).status == 202)
            let base = "app=\(Self.app)&version=5.3.0&baseline=5.2.0"

            let failed = try await Self.verdict(base, port: port, session: session)
            #expect(failed.verdict == .fail)
            #expect(failed.decodes == 2000)
            #expect(failed.baseline == "5.2.0")
            let fields = failed.fields
            #expect(fields.map(\.path) == ["$.results[*].title", "$.results[*].author"])
            #expect(fields.map(\.rate) == [0.02, 0.015])
            #expect(fields.map(\.baselineRate) == [0.005, 0])
            #expect(fields.map(\.count) == [40, 30])
            #expect(fields.allSatisfy { $0.endpoint == "GET /v2/posts/{id}" })

            // At 5×, title's 4× passes; author is new and fails on its rate alone.
            let ratio = try await Self.verdict(base + "&max_ratio=5", port: port, session: session)
            #expect(ratio.fields.map(\.path) == ["$.results[*].author"])
            #expect(
                try await Self.verdict("app=\(Self.app)&version=5.2.0", port: port, session: session).verdict == .pass)
            let unknown = try await Self.verdict("app=\(Self.app)&version=9.9.9", port: port, session: session)
            #expect(unknown.verdict == .insufficient)
            #expect(unknown.decodes == 0)
            #expect(
                try await Self.verdict(base + "&min_decodes=2001", port: port, session: session).verdict
                    == .insufficient)
            let bad = try await Self.check(base + "&max_rate=2", port: port, session: session)
            #expect(bad.status == 400)
            #expect(bad.errorMessage?.hasPrefix("max_rate '2'") == true)
            #expect(try await Self.check("app=\(Self.app)", port: port, session: session).status == 400)

            // The CLI: the same verdict, with exit codes 1, 0 and 2.
            let options = ["check", "--app", Self.app, "--version", "5.3.0", "--baseline", "5.2.0"] + db
            let json = try CLI.run(options + ["--format", "json"])
            #expect(json.status == 1)
            let printed = try JSONDecoder().decode(ReleaseVerdict.self, from: Data(json.output.utf8))
            #expect(printed.verdict == .fail)
            #expect(printed.fields.map(\.group) == fields.map(\.group))

            let text = try CLI.run(options + ["--public-url", "https://dw.example.com"])
            #expect(text.status == 1)
            #expect(text.output.hasPrefix("FAIL: com.example.shop 5.3.0 fails against 5.2.0: 2 fields"))
            #expect(text.output.contains("rate 2% (5.2.0: 0.5%), 40 reports"))
            #expect(text.output.contains("https://dw.example.com/groups/\(fields[0].group)"))

            let junit = try CLI.run(options + ["--format", "junit"])
            #expect(junit.status == 1)
            #expect(
                try XMLCount.elements(in: junit.output) == [
                    "testsuites": 1, "testsuite": 1, "testcase": 2, "failure": 2,
                ])

            let github = try CLI.run(
                options + ["--format", "github"], environment: ["DECODEWATCH_PUBLIC_URL": "https://dw.example.com"])
            #expect(github.status == 1)
            let lines = github.output.split(separator: "\n")
            #expect(lines.count == 2)
            #expect(
                lines.allSatisfy {
                    $0.hasPrefix(
                        "::error title=decodewatch check com.example.shop 5.3.0::GET /v2/posts/{id} $.results[*].")
                })
            #expect(lines[0].contains("rate 2%25 (5.2.0: 0.5%25)"))

            let pass = try CLI.run(["check", "--app", Self.app, "--version", "5.2.0", "--format", "junit"] + db)
            #expect(pass.status == 0)
            #expect(try XMLCount.elements(in: pass.output) == ["testsuites": 1, "testsuite": 1])

            let insufficient = try CLI.run(["check", "--app", Self.app, "--version", "9.9.9"] + db)
            #expect(insufficient.status == 2)
            #expect(insufficient.output.hasPrefix("INSUFFICIENT: com.example.shop 9.9.9 cannot be judged: no decodes"))

            // `GET /v1/fields?version=` and `fields --version` count that version alone, over its own decodes.
            let entries = try await TestHTTPClient(port: port, session: session)
                .get("/v1/fields?app=\(Self.app)&version=5.2.0").decoded(FieldsSummary.self).fields
            #expect(entries.map(\.count) == [10])
            #expect(entries.map(\.rate) == [0.005])
            #expect(entries.map(\.versions) == [["5.2.0": 10]])
            let perVersion = try CLI.run(["fields", "--app", Self.app, "--version", "5.3.0", "--format", "csv"] + db)
            #expect(perVersion.status == 0)
            #expect(perVersion.output.contains(",40,0,0.02,"))

            // Through the collector's API (--url): the same bytes and the same exit codes, every format and verdict.
            let remote = ["--url", "http://127.0.0.1:\(port)"]
            for version in [
                ["--version", "5.3.0", "--baseline", "5.2.0"], ["--version", "5.2.0"], ["--version", "9.9.9"],
            ] {
                for format in ["text", "json", "junit", "github"] {
                    let asked = ["check", "--app", Self.app, "--since", "2h", "--format", format] + version
                    let local = try CLI.run(asked + db)
                    let through = try CLI.run(asked + remote)
                    #expect(through.status == local.status, "\(version) \(format): \(through.error)")
                    #expect(
                        Self.withoutWindow(through.output) == Self.withoutWindow(local.output), "\(version) \(format)")
                }
            }
            let perVersionRemote = try CLI.run(
                ["fields", "--app", Self.app, "--version", "5.3.0", "--format", "csv"] + remote)
            #expect(perVersionRemote.output == perVersion.output)
        }
    }

    /// A check's output with its window's times left out: the collector's clock and the CLI's read "2h back" a
    /// moment apart.
    static func withoutWindow(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z"#, with: "T", options: .regularExpression)
    }

    @Test(
        "bad check options exit 64 with a sentence naming the flag, never 0 or 2",
        arguments: [
            (["--max-rate", "2"], "--max-rate '2'"),
            (["--max-ratio", "0"], "--max-ratio '0' must be a positive number"),
            (["--min-decodes", "many"], "--min-decodes 'many'"),
            (["--format", "xml"], "--format 'xml'"),
            (["--public-url", "dashboard"], "--public-url 'dashboard'"),
            (["--baseline", "5.3.0"], "--baseline '5.3.0' must differ"),
        ])
    func badOptions(options: [String], message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(
            ["check", "--app", Self.app, "--version", "5.3.0", "--db", folder.appendingPathComponent("none").path]
                + options)
        #expect(result.status == 64)
        #expect(result.error.contains("Error: \(message)"), "\(result.error)")
    }

    @Test("a missing --app with --version given is a usage error, not the tool's own version and exit 0")
    func versionIsTheAppVersion() throws {
        let result = try CLI.run(["check", "--version", "5.3.0"])
        #expect(result.status == 64)
        #expect(result.error.contains("--app is required"))
    }
}

/// RFC 3339 text of times relative to now.
enum RFC3339Text {
    static func now(minus seconds: TimeInterval) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date().addingTimeInterval(-seconds))
    }
}

/// Counts the elements of an XML document, failing on a document that does not parse.
final class XMLCount: NSObject, XMLParserDelegate {
    private var counts: [String: Int] = [:]

    static func elements(in text: String) throws -> [String: Int] {
        let parser = XMLParser(data: Data(text.utf8))
        let delegate = XMLCount()
        parser.delegate = delegate
        guard parser.parse() else {
            throw parser.parserError ?? CocoaError(.propertyListReadCorrupt)
        }
        return delegate.counts
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        counts[elementName, default: 0] += 1
    }
}

import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

@Suite("SDK: snippets and messages are redacted on the device")
struct SnippetRedactionTests {
    let endpoint = "GET /repos/o/r/issues"

    /// The report of decoding `body` as `[Label]`, which fails at the root when it is not JSON.
    func rootReport(of body: String) throws -> Report {
        let reporter = TestReporter.make()
        _ = try? JSONDecoder().decode([Label].self, from: Data(body.utf8), endpoint: "GET /l", reporter: reporter)
        return try #require(reporter.pendingReports().first)
    }

    @Test(
        "a body that is not JSON is redacted as text before it is cut",
        arguments: [
            ("<html><body>Signed in as ann@example.com</body></html>", "ann@example.com"),
            ("<html><pre>Authorization: Bearer abc123def456</pre></html>", "abc123def456"),
            ("upstream error for token=9f8e7d6c5b4a&retry=1", "9f8e7d6c5b4a"),
            ("card 4111 1111 1111 1111 declined", "4111 1111 1111 1111"),
            ("session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl expired", "eyJhbGciOiJIUzI1NiJ9"),
        ])
    func nonJSONBody(body: String, secret: String) throws {
        let report = try rootReport(of: body)
        let snippet = try #require(report.snippet)
        #expect(!snippet.contains(secret), "\(snippet)")
        #expect(snippet.contains(Redactor.placeholder))
        #expect(snippet.hasPrefix("\""))
    }

    @Test(
        "an address across the 2 KiB cut of a long HTML page leaves no part of itself", arguments: [2030, 2040, 2045])
    func addressAcrossTheCut(offset: Int) throws {
        let body =
            "<html>" + String(repeating: "x", count: offset - 6) + " ann.lee@example.com "
            + String(repeating: "y", count: 8000)
        let snippet = try #require(try rootReport(of: body).snippet)
        #expect(snippet.utf8.count <= Capture.snippetLimit)
        #expect(!snippet.contains("ann.l"))
    }

    @Test("a JSON element keeps working: keys, values inside strings, long strings")
    func jsonElement() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited(
            "issues.json",
            [
                ([0, "title"], nil), ([0, "user", "api_key"], "k-123456"),
                ([0, "body"], "reset via https://x.io/r?token=abc123&lang=en or mail ann@example.com"),
                ([1, "title"], nil), ([1, "body"], "bob@example.org " + String(repeating: "z", count: 20_000)),
            ])
        _ = try gitHubDecoder().decode([Safe<GitHubIssue>].self, from: data, endpoint: endpoint, reporter: reporter)
        let reports = reporter.pendingReports()
        let first = try #require(reports.first?.snippet)
        #expect(!first.contains("k-123456"))
        #expect(!first.contains("abc123"))
        #expect(!first.contains("ann@example.com"))
        #expect(first.contains("lang=en"))
        #expect(first.contains(#""api_key":"<redacted>""#))
        #expect(first.contains(#""author_association":"#))
        let second = try #require(reports.last?.snippet)
        #expect(second.utf8.count <= Capture.snippetLimit)
        #expect(!second.contains("bob@example.org"))
    }

    @Test("an unknown value that is an e-mail address is redacted in the message")
    func unknownValueMessage() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([2, "state"], "ann@example.com")])
        _ = try gitHubDecoder().decode([GitHubIssue].self, from: data, endpoint: endpoint, reporter: reporter)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.message?.contains("ann@example.com") == false)
        #expect(report.message?.contains(Redactor.placeholder) == true)
        #expect(report.snippet == #""<redacted>""#)
    }

    @Test("an error's debug description is redacted before it is cut to 1000 characters")
    func errorMessage() throws {
        struct Contact: Decodable {
            init(from decoder: any Decoder) throws {
                let value = try decoder.singleValueContainer().decode(String.self)
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: String(repeating: "é", count: 985) + " " + value))
            }
        }
        struct Box: Decodable { @Safe var contact: Contact? }
        let reporter = TestReporter.make()
        _ = try JSONDecoder().decode(
            Box.self, from: Data(#"{"contact":"ann.lee@example.com"}"#.utf8), endpoint: "GET /c", reporter: reporter)
        let message = try #require(reporter.pendingReports().first?.message)
        #expect(message.count <= 1000)
        #expect(!message.contains("ann"))
        #expect(message.hasSuffix(" \(Redactor.placeholder)"))
    }
}

import DecodeWatchCore
import Foundation
import Testing

@Suite("Redaction: real GitHub payloads keep their ordinary fields")
struct RedactorFixtureTests {
    let redactor = Redactor()

    static let fixtures = [
        "commits", "gists", "issues", "labels", "pulls", "releases", "search_issues", "spec-example",
    ]

    /// Fields that carry no personal data and that a report reader needs.
    static let ordinaryKeys: Set<String> = [
        "author_association", "node_id", "login", "html_url", "sha", "id", "url", "title", "state", "name",
        "ssh_url", "private", "gravatar_id", "verified", "reason", "created_at", "number",
    ]

    static func text(of fixture: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: fixture, withExtension: "json", subdirectory: "Fixtures"))
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test("redacting a whole fixture keeps ordinary fields and redacts e-mails", arguments: fixtures)
    func wholeFixture(fixture: String) throws {
        let text = try Self.text(of: fixture)
        let out = redactor.redactSnippet(text, maxBytes: Int.max)
        let original = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let redacted = try JSONSerialization.jsonObject(with: Data(out.utf8))
        var checked = 0
        compare(original, redacted, checked: &checked)
        #expect(checked > 0 || fixture == "spec-example")
        for email in Self.emails(in: text) {
            #expect(!out.contains(email), "\(email)")
        }
    }

    @Test("a fixture cut to 4 KiB (invalid JSON, redacted as text) keeps ordinary key-value pairs", arguments: fixtures)
    func cutFixture(fixture: String) throws {
        let whole = try Self.text(of: fixture)
        // Always cut, so the text is never valid JSON.
        let text = String(whole.utf8.prefix(min(4096, whole.utf8.count - 10)))!
        let out = redactor.redactSnippet(text, maxBytes: 4096)
        for pair in Self.pairs(in: text) where Self.ordinaryKeys.contains(pair.key) {
            #expect(out.contains(pair.text), "\(pair.text) missing")
        }
        for email in Self.emails(in: text) {
            #expect(!out.contains(email), "\(email) kept")
        }
    }

    /// Walks both trees; ordinary keys must be unchanged, `email` keys redacted.
    private func compare(_ original: Any, _ redacted: Any, checked: inout Int) {
        switch (original, redacted) {
        case (let a as [String: Any], let b as [String: Any]):
            for (key, value) in a {
                if key == "email" {
                    #expect(b[key] as? String == Redactor.placeholder)
                } else if Self.ordinaryKeys.contains(key) {
                    checked += 1
                    #expect(
                        "\(value)" == "\(b[key] ?? "missing")", "\(key): \(value) became \(b[key] ?? "missing")")
                } else if let child = b[key] {
                    compare(value, child, checked: &checked)
                }
            }
        case (let a as [Any], let b as [Any]):
            for (left, right) in zip(a, b) { compare(left, right, checked: &checked) }
        default:
            break
        }
    }

    private static func emails(in text: String) -> [String] {
        matches(of: #"[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}"#, in: text)
            .filter { !$0.hasPrefix("git@") }
    }

    /// Complete `"key": "string"` and `"key": scalar` pairs of a JSON text.
    private static func pairs(in text: String) -> [(key: String, text: String)] {
        matches(of: #""([A-Za-z_]+)": (?:"[^"\\]*"|[0-9a-z]+)[,\n]"#, in: text).map { match in
            let key = String(match.dropFirst().prefix { $0 != "\"" })
            return (key, String(match.dropLast()))
        }
    }

    private static func matches(of pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range, in: text).map { String(text[$0]) }
        }
    }
}

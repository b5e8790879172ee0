import DecodeWatchCore
import Foundation
import Testing

/// Where a value with no sensitive key sits in a snippet or message.
enum ValuePlace: String, CaseIterable, Sendable {
    /// A JSON string of its own.
    case jsonString
    /// Inside a longer JSON string.
    case insideJSONString
    /// The last thing of a JSON snippet cut after the value.
    case endOfCutJSON
    /// Inside prose, e.g. an error message.
    case prose
    /// The very end of a text, with nothing after it.
    case endOfText
    /// In an HTML error page.
    case html

    func redact(_ value: String, with redactor: Redactor) -> String {
        switch self {
        case .jsonString: return redactor.redactSnippet(#"{"note":"\#(value)","id":7}"#, maxBytes: 2048)
        case .insideJSONString: return redactor.redactSnippet(#"{"note":"write to \#(value) today"}"#, maxBytes: 2048)
        case .endOfCutJSON: return redactor.redactSnippet(#"{"id":7,"items":[{"note":"\#(value)"#, maxBytes: 2048)
        case .prose:
            return redactor.redactMessage(
                "Cannot initialize Kind from invalid value \(value) here", maxCharacters: 1000)
        case .endOfText: return redactor.redactText("contact: \(value)")
        case .html:
            return redactor.redactSnippet("<html><body><p>Signed in as \(value)</p></body></html>", maxBytes: 2048)
        }
    }
}

@Suite("Redaction: values that look like personal data")
struct RedactorValueTests {
    let redactor = Redactor()

    static let sensitiveValues = [
        "ann@example.com", "first.last+tag@mail.example.co.uk", "ann%40example.com",
        "Bearer abcDEF123456789xyz", "bearer 0123456789abcdef",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.", "4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111111",
        "5500 0000 0000 0004", "3782 822463 10005", "6011000990139424", "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "AKIAIOSFODNN7EXAMPLE",
    ]

    @Test(
        "values that look like personal data are redacted wherever they sit", arguments: sensitiveValues,
        ValuePlace.allCases)
    func sensitiveValue(value: String, place: ValuePlace) {
        let out = place.redact(value, with: redactor)
        let secret = value.hasPrefix("Bearer ") || value.hasPrefix("bearer ") ? String(value.dropFirst(7)) : value
        expectRedacted(out, hiding: secret)
    }

    @Test("a card number sent as a JSON number is redacted", arguments: ["4111111111111111", "5500000000000004"])
    func cardNumberAsJSONNumber(number: String) {
        let out = redactor.redactSnippet(#"{"n":\#(number),"m":2}"#, maxBytes: 2048)
        #expect(!out.contains(number))
        #expect(out.contains(#""n":"<redacted>""#))
    }

    @Test(
        "the beginning of a secret at the end of a cut text is redacted",
        arguments: [
            (#"{"id":1,"note":"mail ann@exam"#, "ann@exam"),
            (#"{"id":1,"note":"card 4111 1111 1111 1"#, "4111 1111 1111 1"),
            (#"{"id":1,"t":"eyJhbGc"#, "eyJhbGc"), (#"{"id":1,"t":"ann%40exa"#, "ann%40exa"),
            (#"{"id":1,"ssh":"git@github.co"#, "git@github.co"),
        ])
    func cutSecretAtEnd(snippet: String, secret: String) {
        let out = redactor.redactSnippet(snippet, maxBytes: 2048)
        expectRedacted(out, hiding: secret)
    }

    @Test("surrounding text is kept when a value inside it is redacted")
    func keepsContext() {
        #expect(redactor.redactText("call 4111 1111 1111 1111 now") == "call <redacted> now")
        #expect(redactor.redactText("Authorization: Bearer abc.def") == "Authorization: <redacted>")
        #expect(redactor.redactText("sent Bearer abcdef123 to") == "sent Bearer <redacted> to")
        #expect(redactor.redactText("mail ann@example.com.") == "mail <redacted>.")
    }

    /// Values of ordinary payloads that must come through unchanged.
    static let ordinaryValues = [
        "4111111111111112", "4111 1111 1111 1112", "12345", "1296269", "2011-01-26T19:01:12Z",
        "6dcb09b5b57875f334f61aebed695e2e4193db5e", "MDU6SXNzdWUx", "3F2504E0-4F89-11D3-9A0C-0305E82C3301",
        "https://api.github.com/repos/octocat/Hello-World/issues/1347", "git@github.com:octocat/Hello-World.git",
        "@octocat", "v1.2.3", "+1 (555) 010", "OWNER", "CONTRIBUTOR", "pkg@1.2.3", "10:30", "a == b",
        "12345678901234567890123", "No value associated with key title (\"title\").",
    ]

    @Test("ordinary values survive", arguments: ordinaryValues, [ValuePlace.jsonString, .insideJSONString, .prose])
    func ordinaryValue(value: String, place: ValuePlace) {
        let out = place.redact(value.replacingOccurrences(of: "\"", with: "'"), with: redactor)
        #expect(out.contains(value.replacingOccurrences(of: "\"", with: "'")), "\(out)")
        #expect(!out.contains(Redactor.placeholder), "\(out)")
    }
}

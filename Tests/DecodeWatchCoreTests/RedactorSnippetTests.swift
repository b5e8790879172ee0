import DecodeWatchCore
import Foundation
import Testing

@Suite("Redaction: snippets and messages are redacted before they are cut")
struct RedactorSnippetTests {
    let redactor = Redactor()
    let secret = "SeCrEt-0123456789-abcdefghij"

    /// `{"a":"xxx…","<key>":"<secret>"…}` with the secret's key starting `offset` bytes in.
    func snippet(secretAt offset: Int, key: String = "api_key", tail: String = "}") -> String {
        let head = #"{"a":""#
        let padding = String(repeating: "x", count: offset - head.utf8.count - 2)
        return head + padding + #"",""# + key + #"":""# + secret + #"""# + tail
    }

    @Test("U+FEFF at the start of a JSON string is kept (Foundation's parser drops it), and secrets still go")
    func byteOrderMarkKept() {
        let out = redactor.redactSnippet("{\"title\":\"\u{FEFF}x\",\"token\":\"\(secret)\"}", maxBytes: 2048)
        #expect(out.unicodeScalars.contains("\u{FEFF}"))
        #expect(out.hasPrefix("{\"title\":\"\u{FEFF}x\""))
        #expect(!out.contains(secret.prefix(6)))
    }

    @Test(
        "a secret under a key is redacted wherever it lies relative to the 2 KiB cut",
        arguments: [100, 2000, 2030, 2040, 2047, 2060, 3000])
    func secretAroundTheCut(offset: Int) {
        for text in [snippet(secretAt: offset), String(snippet(secretAt: offset).dropLast(8))] {
            let out = redactor.redactSnippet(text, maxBytes: 2048)
            #expect(out.utf8.count <= 2048)
            #expect(!out.contains(secret.prefix(6)), "offset \(offset)")
        }
    }

    @Test(
        "above the parse limit a snippet is cut first and still redacted across the cut",
        arguments: [100, 2030, 2040, 2047, 2500, 3500])
    func hugeSnippet(offset: Int) {
        let filler = #","z":""# + String(repeating: "y", count: Redactor.jsonParseLimit) + #""}"#
        let out = redactor.redactSnippet(snippet(secretAt: offset, tail: filler), maxBytes: 2048)
        #expect(out.utf8.count <= 2048)
        #expect(!out.contains(secret.prefix(6)), "offset \(offset)")
    }

    @Test("an e-mail address across the cut of a huge text leaves no part of itself", arguments: [2040, 2044, 2046])
    func emailAcrossTheCut(offset: Int) {
        let text =
            String(repeating: "a ", count: offset / 2) + "ann.lee@example.com " + String(repeating: "b", count: 70_000)
        let out = redactor.redactSnippet(text, maxBytes: 2048)
        #expect(out.utf8.count <= 2048)
        #expect(!out.contains("ann.l"))
    }

    @Test("a 16 MiB snippet is cut before it is parsed and comes back at most maxBytes long")
    func boundedWork() {
        let huge = #"{"items":["# + String(repeating: #"{"email":"ann@example.com","n":1},"#, count: 500_000) + "1]}"
        let out = redactor.redactSnippet(huge, maxBytes: 2048)
        #expect(out.utf8.count <= 2048)
        #expect(!out.contains("ann@"))
    }

    @Test("a snippet is cut between characters, never inside one")
    func cutsBetweenCharacters() {
        let out = redactor.redactSnippet(#"{"t":""# + String(repeating: "é", count: 3000) + #""}"#, maxBytes: 2048)
        #expect(out.utf8.count <= 2048)
        #expect(out.utf8.count >= 2046)
        #expect(!out.contains("\u{FFFD}"))
    }

    @Test("valid JSON comes back compact with sorted keys, as before")
    func jsonIsRewritten() {
        #expect(
            redactor.redactSnippet(#"{ "b": 1, "a": "x/y", "password": [1, 2] }"#, maxBytes: 2048)
                == #"{"a":"x/y","b":1,"password":"<redacted>"}"#)
    }

    @Test(
        "messages with personal data are redacted",
        arguments: [
            (#"Cannot initialize Role from invalid String value ann@example.com"#, "ann@example.com"),
            (#"Invalid token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"#, "eyJhbGciOiJIUzI1NiJ9"),
            (#"Bad card 4111-1111-1111-1111 for order"#, "4111-1111-1111-1111"),
            (#"Unexpected body: password=hunter2&user=ann"#, "hunter2"),
            (#"dataCorrupted: {"user_email":"bob@example.org"}"#, "bob@example.org"),
        ])
    func message(text: String, secret: String) {
        let out = redactor.redactMessage(text, maxCharacters: 1000)
        expectRedacted(out, hiding: secret)
    }

    @Test("a long message is redacted before it is cut to 1000 characters")
    func longMessage() {
        let text = String(repeating: "é", count: 990) + " ann.lee@example.com " + String(repeating: "z", count: 5000)
        let out = redactor.redactMessage(text, maxCharacters: 1000)
        #expect(out.count == 1000)
        #expect(!out.contains("ann"))
    }

    @Test("a message within the limit in characters but not in bytes is kept whole, and one a character over is cut")
    func messageAtTheLimit() {
        let wide = String(repeating: "é", count: 1000)
        #expect(redactor.redactMessage(wide, maxCharacters: 1000) == wide)
        let over = String(repeating: "é", count: 1001)
        #expect(redactor.redactMessage(over, maxCharacters: 1000) == wide)
        let short = "Expected String but found a number instead."
        #expect(redactor.redactMessage(short, maxCharacters: 1000) == short)
    }

    @Test("an HTML error page is redacted as text: e-mails, tokens, form fields, meta tags")
    func htmlErrorPage() {
        let page = """
            <!DOCTYPE html><html><head><meta name="csrf-token" content="q8Zr0aVw3xY1pK">
            <title>500</title></head><body><p>Request by ann@example.com failed.</p>
            <pre>Authorization: Bearer abc123def456ghi789</pre>
            <input type="hidden" name="session_id" value="s-77aa11"><input value='pw-5566' name='password'>
            <a href="/reset?token=tok_9f8e7d&amp;lang=en">reset</a></body></html>
            """
        let out = redactor.redactSnippet(page, maxBytes: 2048)
        for secret in ["ann@example.com", "abc123def456ghi789", "q8Zr0aVw3xY1pK", "s-77aa11", "pw-5566", "tok_9f8e7d"] {
            #expect(!out.contains(secret), "\(secret)")
        }
        #expect(out.contains("<title>500</title>"))
        #expect(out.contains("lang=en"))
    }

    @Test("plain text with a token is redacted")
    func plainText() {
        let out = redactor.redactSnippet("Unauthorized. X-Auth-Token: 9f8e7d6c5b4a was revoked", maxBytes: 2048)
        #expect(!out.contains("9f8e7d6c5b4a"))
        #expect(out.hasPrefix("Unauthorized. X-Auth-Token: <redacted>"))
    }

    @Test("the sensitive keys' whole values go in cut JSON: objects, arrays and bare scalars")
    func cutJSONValues() {
        let snippet =
            #"{"password":{"x":1,"y":[2,3]},"card_number": 4111 1111 1111 1111,"#
            + #""tokens":["a","b"],"title":"kept","api_key":"abc"#
        #expect(
            redactor.redactSnippet(snippet, maxBytes: 2048)
                == #"{"password":"<redacted>","card_number": "<redacted>","#
                + #""tokens":"<redacted>","title":"kept","api_key":"<redacted>""#)
    }
}

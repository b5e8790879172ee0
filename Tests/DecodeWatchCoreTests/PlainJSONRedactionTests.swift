import DecodeWatchCore
@_spi(WireInternals) import DecodeWatchWire
import Foundation
import Testing

@Suite("Plain JSON is read without Foundation's parser and redacted to the same text")
struct PlainJSONRedactionTests {
    let redactor = Redactor()

    /// Snippets at the edges of what the plain reader takes, and past them.
    static let edges = [
        #"{}"#, #"[]"#, #"  {"a" : [1, -2, 0, true, false, null] }  "#, #"{"b":1,"a":2,"B":3,"_":4,"é":5}"#,
        #"{"card":4111111111111111,"n":41111111111111111111}"#, #"{"price":12.50,"e":1e3,"z":-0,"x":-0.0}"#,
        #"{"a":"x\"y","b":"\u00e9"}"#, #"{"a":1,"a":2}"#, #"{"e\u0301":1,"é":2}"#, #""just a string""#, "42",
        "-7", "007", #"{"a":01}"#, #"{"a":1,}"#, #"[1 2]"#, #"{"a":"ann@example.com","token":{"x":[1]}}"#,
        #"{"a":"line"#, #"{"nested":"# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}",
        #"{"t":"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc"}"#, "{\"tab\":\"a\tb\"}", #"{"a":tru}"#, "nul",
    ]

    @Test("edge cases: the same text as through JSONSerialization, whole and cut to 24 bytes")
    func edgesMatch() {
        for snippet in Self.edges {
            for limit in [2048, 24] {
                #expect(
                    redactor.redactedJSON(snippet, maxBytes: limit)
                        == redactor.redactedJSON(snippet, maxBytes: limit, plainFirst: false), "\(snippet)")
            }
        }
    }

    @Test("10,000 generated snippets: the same text as through JSONSerialization, and most read without it")
    func generatedMatch() {
        var random = SystemRandomNumberGenerator()
        var plain = 0
        for _ in 0..<10_000 {
            let snippet = Self.value(depth: 0, using: &random)
            if PlainJSONReader.tree(of: snippet) != nil { plain += 1 }
            #expect(
                redactor.redactedJSON(snippet, maxBytes: 2048)
                    == redactor.redactedJSON(snippet, maxBytes: 2048, plainFirst: false), "\(snippet)")
        }
        #expect(plain > 5_000)
    }

    /// A random JSON value like a payload's: objects with common and sensitive keys, numbers of every size, strings
    /// with addresses, tokens and text beyond ASCII, now and then a fraction or an escape.
    static func value(depth: Int, using random: inout some RandomNumberGenerator) -> String {
        let keys = [
            "id", "title", "email", "price", "user_id", "Title", "tags", "a", "b", "token", "pin", "created_at",
        ]
        let strings = [
            "hello", "Zoë 😀", "ann@example.com", "4111 1111 1111 1111", "", "x y",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "2026-11-21T09:00:00Z", #"quote \" inside"#,
        ]
        switch Int.random(in: 0..<(depth < 3 ? 9 : 6), using: &random) {
        case 0: return String(Int.random(in: -1_000_000...1_000_000, using: &random))
        case 1: return String(Int64.random(in: Int64.min...Int64.max, using: &random))
        case 2: return "\"" + strings.randomElement(using: &random)! + "\""
        case 3: return ["true", "false", "null"].randomElement(using: &random)!
        case 4: return String(Double.random(in: -100...100, using: &random))
        case 5: return "4111111111111111"
        case 6, 7:
            let count = Int.random(in: 0..<5, using: &random)
            let members = (0..<count).map { _ in
                "\"" + keys.randomElement(using: &random)! + "\":" + value(depth: depth + 1, using: &random)
            }
            return "{" + members.joined(separator: ",") + "}"
        default:
            let count = Int.random(in: 0..<4, using: &random)
            return "[" + (0..<count).map { _ in value(depth: depth + 1, using: &random) }.joined(separator: ", ") + "]"
        }
    }
}

import Foundation
import Testing

@testable import DecodeWatchCore

/// A JSON text the validator must accept, with a short name for the test report.
struct ValidJSON: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    let testDescription: String

    init(_ text: String, named name: String? = nil) {
        self.bytes = Array(text.utf8)
        self.testDescription = name ?? String(text.debugDescription.prefix(60))
    }
}

/// A text the validator must refuse, the fragment its reason must contain, and where, when the row says.
struct InvalidJSON: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    let reason: String
    let line: Int?
    let column: Int?
    let testDescription: String

    init(_ text: String, _ reason: String, line: Int? = nil, column: Int? = nil) {
        self.init(bytes: Array(text.utf8), reason, line: line, column: column, named: text.debugDescription)
    }

    init(bytes: [UInt8], _ reason: String, line: Int? = nil, column: Int? = nil, named name: String? = nil) {
        self.bytes = bytes
        self.reason = reason
        self.line = line
        self.column = column
        self.testDescription = String(
            (name ?? bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "<\($0)>" }.joined())
                .prefix(60))
    }
}

@Suite("Strict RFC 8259 validation of ingest bodies")
struct StrictJSONTests {
    static let valid: [ValidJSON] = [
        // Every kind of value at the top level.
        ValidJSON("{}"), ValidJSON("[]"), ValidJSON("0"), ValidJSON("-0"), ValidJSON("7"), ValidJSON("-12"),
        ValidJSON("true"), ValidJSON("false"), ValidJSON("null"), ValidJSON(#""""#), ValidJSON(#""abc""#),
        // Numbers: fractions, exponents in every spelling, big integers.
        ValidJSON("0.5"), ValidJSON("-0.0"), ValidJSON("10.25"), ValidJSON("1e5"), ValidJSON("1E5"),
        ValidJSON("1e+5"), ValidJSON("1e-5"), ValidJSON("0e0"), ValidJSON("-1.5E-10"), ValidJSON("2.5e+300"),
        ValidJSON("123456789012345678901234567890"), ValidJSON("[0,-0,1,-1,0.0,1.0e1,9]"),
        // Every escape, surrogate pairs, and raw UTF-8 of every length.
        ValidJSON(#""\" \\ \/ \b \f \n \r \t""#, named: "every short escape"),
        ValidJSON(#""\u0000\u001f\u0041\u00e9\u00E9\uFFFF\uabcd""#, named: "\\u escapes, both cases"),
        ValidJSON(#""\uD83D\uDE00 \ud83d\ude00 \uDBFF\uDFFF \uD800\uDC00""#, named: "surrogate pairs"),
        ValidJSON("\"é € 😀 \u{10FFFF} \u{7F} \u{FEFF} \u{A0}\"", named: "raw UTF-8 of 2, 3 and 4 bytes"),
        ValidJSON(#""a long string that spans several eight-byte words, with \"quotes\" and \\ inside""#),
        ValidJSON(#"{"":""}"#, named: "empty key"),
        ValidJSON(#"{"a":1,"a":2}"#, named: "duplicate keys (RFC 8259 allows them)"),
        // Nesting.
        ValidJSON(#"{"a":{"b":[1,{"c":null}]},"d":[[],[{}]],"e":[true,false,"x",-1.5e3]}"#),
        ValidJSON(String(repeating: "[", count: 128) + String(repeating: "]", count: 128), named: "128 arrays deep"),
        ValidJSON(
            String(repeating: #"{"a":"#, count: 128) + "1" + String(repeating: "}", count: 128),
            named: "128 objects deep"),
        ValidJSON(
            String(repeating: #"[{"a":"#, count: 64) + "1" + String(repeating: "}]", count: 64),
            named: "128 deep, arrays and objects mixed"),
        // Whitespace everywhere it is allowed.
        ValidJSON(
            " \t\r\n"
                + ["{", #""a""#, ":", "[", "1", ",", #""b""#, "]", ",", #""c""#, ":", "{", "}", "}"]
                .joined(separator: " \t\r\n") + " \t\r\n",
            named: "space, tab, CR and LF around every token"),
        ValidJSON("\r\n[1,\r2,\n3]\r\n", named: "CR, LF and CR LF line ends"),
        ValidJSON(String(decoding: realisticBatch(), as: UTF8.self), named: "a realistic batch of 100 reports"),
    ]

    static let invalid: [InvalidJSON] = [
        // Trailing, missing and misplaced separators.
        InvalidJSON("[1,2,]", "trailing comma before ']'", line: 1, column: 5),
        InvalidJSON(#"{"a":1,}"#, "trailing comma before '}'", line: 1, column: 7),
        InvalidJSON("{\"a\":1 ,\n }", "trailing comma before '}'", line: 1, column: 8),
        InvalidJSON("[1 2]", "missing ',' between array elements", line: 1, column: 4),
        InvalidJSON(#"{"a":1 "b":2}"#, "missing ',' between object members", line: 1, column: 8),
        InvalidJSON(#"{"a" 1}"#, "missing ':' after the object key", line: 1, column: 6),
        InvalidJSON(#"{"a"}"#, "missing ':' after the object key"),
        InvalidJSON("[,1]", "expected a value, found ','", line: 1, column: 2),
        InvalidJSON("[1,,2]", "expected a value, found ','"),
        InvalidJSON(#"{"a":}"#, "expected a value, found '}'"),
        InvalidJSON("{,}", "expected a key in double quotes, found ','"),
        InvalidJSON("[1}", "found '}' where the array needs ']'", line: 1, column: 3),
        InvalidJSON(#"{"a":1]"#, "found ']' where the object needs '}'"),
        InvalidJSON("[1:2]", "expected ',' or ']' after an array element, found ':'"),
        InvalidJSON("]", "expected a value, found ']'"),
        // Keys and strings that are not double-quoted.
        InvalidJSON("{a:1}", "unquoted key 'a'", line: 1, column: 2),
        InvalidJSON("{'a':1}", "single-quoted key"),
        InvalidJSON("['a']", "single-quoted string", line: 1, column: 2),
        InvalidJSON("[abc]", "unquoted string 'abc'"),
        InvalidJSON(#"{"a":b}"#, "unquoted string 'b'"),
        // Control characters inside strings.
        InvalidJSON("\"a\nb\"", #"control character U+000A inside a string; escape it as \n"#, line: 1, column: 3),
        InvalidJSON("\"a\tb\"", #"control character U+0009 inside a string; escape it as \t"#),
        InvalidJSON("\"a\rb\"", #"escape it as \r"#),
        InvalidJSON("\"\u{0}\"", #"control character U+0000 inside a string; escape it as \u0000"#),
        InvalidJSON("\"\u{1F}\"", #"control character U+001F inside a string; escape it as \u001F"#),
        InvalidJSON("\"\u{8}\u{C}\"", #"escape it as \b"#),
        // Escapes outside the list.
        InvalidJSON(#""\x41""#, #"invalid escape '\x'"#, line: 1, column: 2),
        InvalidJSON(#""\a""#, #"invalid escape '\a'"#),
        InvalidJSON(#""\'""#, #"invalid escape '\''"#),
        InvalidJSON(#""\U0041""#, #"invalid escape '\U'"#),
        InvalidJSON(#""\0""#, #"invalid escape '\0'"#),
        InvalidJSON("\"\\\n\"", #"invalid escape: '\' followed by U+000A"#),
        InvalidJSON(#""\u12""#, #"invalid escape '\u12'; \u must be followed by exactly 4 hex digits"#),
        InvalidJSON(#""\u12G4""#, #"invalid escape '\u12G4'"#),
        InvalidJSON(#""\u""#, #"\u must be followed by exactly 4 hex digits"#),
        InvalidJSON(#""\u{41}""#, #"\u must be followed by exactly 4 hex digits"#),
        // UTF-16 surrogates that do not pair up.
        InvalidJSON(#""\uD800""#, #"lone surrogate \uD800"#, line: 1, column: 2),
        InvalidJSON(#""\ud800x""#, #"lone surrogate \uD800"#),
        InvalidJSON(#""\uD800\u0041""#, #"lone surrogate \uD800"#),
        InvalidJSON(#""\uD800\uD800""#, #"lone surrogate \uD800"#),
        InvalidJSON(#""\uD800\n""#, #"lone surrogate \uD800"#),
        InvalidJSON(#""\uDC00""#, #"lone surrogate \uDC00; a low surrogate must follow a high one"#),
        InvalidJSON(#""\uDFFF\uD800""#, #"lone surrogate \uDFFF"#, line: 1, column: 2),
        InvalidJSON(#""\uD800\uDC00\uDC00""#, #"lone surrogate \uDC00"#, line: 1, column: 14),
        // Invalid UTF-8, inside and outside strings.
        InvalidJSON(bytes: [0x22, 0xFF, 0x22], "invalid UTF-8 byte 0xFF", line: 1, column: 2),
        InvalidJSON(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], "invalid UTF-8 byte 0xF5"),
        InvalidJSON(bytes: [0x22, 0x80, 0x22], "invalid UTF-8: continuation byte 0x80 without a lead byte"),
        InvalidJSON(bytes: [0x22, 0x61, 0xBF, 0x22], "continuation byte 0xBF without a lead byte", column: 3),
        InvalidJSON(bytes: [0x22, 0xC0, 0xAF, 0x22], "invalid UTF-8: overlong encoding starting with 0xC0"),
        InvalidJSON(bytes: [0x22, 0xC1, 0xBF, 0x22], "overlong encoding starting with 0xC1"),
        InvalidJSON(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], "invalid UTF-8: overlong encoding 0xE0 0x80"),
        InvalidJSON(bytes: [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], "invalid UTF-8: overlong encoding 0xF0 0x80"),
        InvalidJSON(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8: encoded surrogate 0xED 0xA0"),
        InvalidJSON(bytes: [0x22, 0xED, 0xBF, 0xBF, 0x22], "encoded surrogate 0xED 0xBF"),
        InvalidJSON(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8: code point above U+10FFFF"),
        InvalidJSON(bytes: [0x22, 0xE2, 0x82, 0x22], "invalid UTF-8: truncated sequence, 0xE2 is followed by 0x22"),
        InvalidJSON(bytes: [0x22, 0xC3, 0x41, 0x22], "truncated sequence, 0xC3 is followed by 0x41"),
        InvalidJSON(bytes: [0x22, 0xF0, 0x9F, 0x98], "invalid UTF-8: the text ends inside the sequence"),
        InvalidJSON(bytes: [0x5B, 0xFF, 0x5D], "invalid UTF-8 byte 0xFF", line: 1, column: 2),
        InvalidJSON(bytes: [0x5B, 0x31, 0x5D, 0xC0, 0x80], "overlong encoding starting with 0xC0", column: 4),
        InvalidJSON("[é]", "unexpected character U+00E9 outside a string"),
        // Numbers outside the grammar.
        InvalidJSON("01", "number with a leading zero", line: 1, column: 1),
        InvalidJSON("-01", "number with a leading zero", line: 1, column: 2),
        InvalidJSON("[00]", "number with a leading zero"),
        InvalidJSON("0.", "number with no digit after the decimal point", line: 1, column: 3),
        InvalidJSON("[0.]", "number with no digit after the decimal point"),
        InvalidJSON(".5", "number starting with '.'", line: 1, column: 1),
        InvalidJSON("[-.5]", "expected a digit after '-', found '.'"),
        InvalidJSON("1.e5", "number with no digit after the decimal point", line: 1, column: 3),
        InvalidJSON("1e", "exponent with no digits", line: 1, column: 3),
        InvalidJSON("1e+", "exponent with no digits"),
        InvalidJSON("[1E-]", "exponent with no digits"),
        InvalidJSON("1.2.3", "number with more than one decimal point", line: 1, column: 4),
        InvalidJSON("1e5.0", "decimal point in an exponent"),
        InvalidJSON("1e5e3", "number with more than one exponent"),
        InvalidJSON("-", "expected a digit after '-'", line: 1, column: 2),
        InvalidJSON("--1", "expected a digit after '-', found '-'"),
        InvalidJSON("+1", "number with a leading '+'"),
        InvalidJSON("0x1F", "hexadecimal number"),
        InvalidJSON("[1-2]", "unexpected '-' after a number"),
        InvalidJSON("[12abc]", "unexpected 'a' after a number"),
        // Values JSON does not have, and literals misspelled or in another case.
        InvalidJSON("NaN", "NaN is not a JSON value"),
        InvalidJSON("[nan]", "NaN is not a JSON value"),
        InvalidJSON("Infinity", "Infinity is not a JSON number"),
        InvalidJSON("-Infinity", "-Infinity is not a JSON number", line: 1, column: 2),
        InvalidJSON("True", "'True' is not a JSON literal; write it in lowercase: true"),
        InvalidJSON("FALSE", "'FALSE' is not a JSON literal; write it in lowercase: false"),
        InvalidJSON("[Null]", "'Null' is not a JSON literal; write it in lowercase: null"),
        InvalidJSON("tru", "misspelled literal 'tru'"),
        InvalidJSON("[ture]", "misspelled literal 'ture'"),
        InvalidJSON("nul", "misspelled literal 'nul'"),
        InvalidJSON("nulll", "misspelled literal 'nulll'"),
        InvalidJSON("[true1]", "misspelled literal 'true1'"),
        InvalidJSON("fals", "misspelled literal 'fals'"),
        InvalidJSON("nil", "'nil' is not a JSON literal; write null"),
        InvalidJSON("undefined", "'undefined' is not a JSON literal; write null"),
        // Comments.
        InvalidJSON("// note\n{}", "comment; JSON has no comments", line: 1, column: 1),
        InvalidJSON("{} // note", "comment; JSON has no comments", line: 1, column: 4),
        InvalidJSON("[1, /* two */ 2]", "comment; JSON has no comments", line: 1, column: 5),
        InvalidJSON("{\"a\":1 # note\n}", "expected ',' or '}' after an object member, found '#'"),
        // Whitespace JSON does not allow, and byte order marks.
        InvalidJSON("\u{C}{}", "form feed U+000C is not JSON whitespace", line: 1, column: 1),
        InvalidJSON("[1,\u{B}2]", "vertical tab U+000B is not JSON whitespace"),
        InvalidJSON("{\u{A0}}", "no-break space U+00A0 is not JSON whitespace", line: 1, column: 2),
        InvalidJSON("[1,\u{3000}2]", "space character U+3000 is not JSON whitespace"),
        InvalidJSON("[1]\u{2028}", "space character U+2028 is not JSON whitespace"),
        InvalidJSON("[\u{1}]", "control character U+0001 outside a string"),
        InvalidJSON("\u{FEFF}{}", "byte order mark (EF BB BF) at the start of the body", line: 1, column: 1),
        InvalidJSON(bytes: [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], "UTF-16 byte order mark at the start of the body"),
        InvalidJSON(bytes: [0xFE, 0xFF, 0x00, 0x7B, 0x00, 0x7D], "UTF-16 byte order mark"),
        InvalidJSON("[1,\u{FEFF}2]", "byte order mark U+FEFF inside the text"),
        // Nothing, too little, or too much.
        InvalidJSON("", "empty body", line: 1, column: 1),
        InvalidJSON(" \n\t", "the body is only whitespace"),
        InvalidJSON("{} {}", "unexpected text after the JSON value", line: 1, column: 4),
        InvalidJSON("{}x", "unexpected text after the JSON value"),
        InvalidJSON("1 2", "unexpected text after the JSON value"),
        InvalidJSON(#""a" "b""#, "unexpected text after the JSON value"),
        InvalidJSON("[]]", "unexpected text after the JSON value"),
        InvalidJSON("{},", "unexpected text after the JSON value"),
        InvalidJSON("\"abc", "the text ended inside a string", line: 1, column: 5),
        InvalidJSON(#""abc\"#, "the text ended inside a string"),
        InvalidJSON("[1,2", "the text ended inside an array; expected ',' or ']'", line: 1, column: 5),
        InvalidJSON("[1,", "the text ended where a value was expected"),
        InvalidJSON("[", "the text ended where a value was expected"),
        InvalidJSON(#"{"a":1"#, "the text ended inside an object; expected ',' or '}'"),
        InvalidJSON("{", "the text ended inside an object; expected a key in double quotes"),
        InvalidJSON(#"{"a""#, "the text ended after an object key; expected ':'"),
        InvalidJSON(#"{"a":"#, "the text ended where a value was expected"),
        // Nesting past the limit.
        InvalidJSON(String(repeating: "[", count: 129), "nesting deeper than 128", line: 1, column: 129),
        InvalidJSON(
            String(repeating: #"{"a":"#, count: 128) + "{}" + String(repeating: "}", count: 128),
            "nesting deeper than 128", line: 1, column: 128 * 5 + 1),
    ]

    @Test("accepts every RFC 8259 text in the table", arguments: valid)
    func acceptsValidText(_ row: ValidJSON) throws {
        try StrictJSON.validate(row.bytes)
    }

    @Test("Foundation's own parser accepts every row we accept, so we never refuse real JSON", arguments: valid)
    func foundationAgreesWithValidRows(_ row: ValidJSON) throws {
        _ = try JSONSerialization.jsonObject(with: Data(row.bytes), options: [.fragmentsAllowed])
    }

    @Test("refuses every non-JSON text in the table with an actionable reason and its position", arguments: invalid)
    func refusesInvalidText(_ row: InvalidJSON) throws {
        let error = try #require(throws: JSONSyntaxError.self) { try StrictJSON.validate(row.bytes) }
        #expect(error.reason.contains(row.reason), "reason was: \(error.reason)")
        if let line = row.line { #expect(error.line == line, "\(error)") }
        if let column = row.column { #expect(error.column == column, "\(error)") }
        #expect(error.offset >= 0 && error.offset <= row.bytes.count)
    }

    @Test("a million '[' stops at the depth limit with an error instead of overflowing the stack")
    func millionOpenBracketsHitTheDepthLimit() throws {
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        let error = try #require(throws: JSONSyntaxError.self) { try StrictJSON.validate(hostile) }
        #expect(error.reason == "nesting deeper than 128")
        #expect(error.offset == 128)
    }

    @Test("a huge depth limit still validates deep input without recursion")
    func hugeLimitAllowsDeepInput() throws {
        let depth = 200_000
        let deep =
            [UInt8](repeating: UInt8(ascii: "["), count: depth) + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
        try StrictJSON.validate(deep, maxDepth: .max)
        #expect(throws: JSONSyntaxError.self) { try StrictJSON.validate(deep, maxDepth: depth - 1) }
    }

    @Test("maxDepth counts arrays and objects together, and 0 allows only scalars")
    func maxDepthIsExact() throws {
        let nested = Array(#"[{"a":[1]}]"#.utf8)
        try StrictJSON.validate(nested, maxDepth: 3)
        let error = try #require(throws: JSONSyntaxError.self) { try StrictJSON.validate(nested, maxDepth: 2) }
        #expect(error.reason == "nesting deeper than 2")
        #expect(error.column == 7)
        try StrictJSON.validate(Array("42".utf8), maxDepth: 0)
        #expect(throws: JSONSyntaxError.self) { try StrictJSON.validate(Array("[]".utf8), maxDepth: 0) }
        #expect(throws: JSONSyntaxError.self) { try StrictJSON.validate(Array("{}".utf8), maxDepth: -1) }
    }

    @Test("lines and columns count LF, CR and CR LF as one line end each, and columns in bytes")
    func lineAndColumnOnAMultiLineBody() throws {
        let body = """
            {
              "batch_id": "b1",
              "app": {"id": "com.example.shop"},
              "reports": [
                {"kind": "other", "message": "café",},
              ]
            }
            """
        let error = try #require(throws: JSONSyntaxError.self) { try StrictJSON.validate(Array(body.utf8)) }
        // The comma after "café": é is two bytes, so the column is one more than the characters before it.
        #expect(error.description == "at line 5, column 41: trailing comma before '}'")
        let bytes = Array(body.utf8)
        #expect(bytes[error.offset] == UInt8(ascii: ",") && bytes[error.offset + 1] == UInt8(ascii: "}"))

        let crlf = Array("[\r\n1,\r\n2,\r\n]".utf8)
        let crlfError = try #require(throws: JSONSyntaxError.self) { try StrictJSON.validate(crlf) }
        #expect((crlfError.line, crlfError.column, crlfError.offset) == (3, 2, 8))

        let cr = Array("[1,\r\r  x]".utf8)
        let crError = try #require(throws: JSONSyntaxError.self) { try StrictJSON.validate(cr) }
        #expect((crError.line, crError.column) == (3, 3))
    }

    @Test("the description puts the position before the reason")
    func descriptionFormat() throws {
        let error = try #require(throws: JSONSyntaxError.self) {
            try StrictJSON.validate(Array(#"{"batch_id": "b1", "reports": [],}"#.utf8))
        }
        #expect(error.description == "at line 1, column 33: trailing comma before '}'")
        #expect(error == JSONSyntaxError(offset: 32, line: 1, column: 33, reason: "trailing comma before '}'"))
    }

    @Test("Data, [UInt8] and raw bytes give the same answer")
    func everyByteContainerAgrees() throws {
        let text = #"{"a":[1,2,]}"#
        let fromData = try #require(throws: JSONSyntaxError.self) { try StrictJSON.validate(Data(text.utf8)) }
        let fromArray = try #require(throws: JSONSyntaxError.self) { try StrictJSON.validate(Array(text.utf8)) }
        let fromRaw = try #require(throws: JSONSyntaxError.self) {
            try Array(text.utf8).withUnsafeBytes { raw in try StrictJSON.validate(raw) }
        }
        #expect(fromData == fromArray)
        #expect(fromRaw == fromArray)
        try StrictJSON.validate(Data(#"{"a":[1,2]}"#.utf8))
        // A slice of Data does not start at index 0; the offset must still count from the slice's start.
        let slice = Data(#"xx{"a":,}"#.utf8).dropFirst(2)
        let fromSlice = try #require(throws: JSONSyntaxError.self) { try StrictJSON.validate(slice) }
        #expect(fromSlice.offset == 5)
    }

    @Test(
        "a problem byte is found at every position within the eight-byte words a string is scanned in",
        arguments: 0..<20)
    func stringScanFindsProblemsAtEveryAlignment(_ prefix: Int) throws {
        let lead = [UInt8(ascii: "\"")] + [UInt8](repeating: UInt8(ascii: "a"), count: prefix)
        let tail = [UInt8](repeating: UInt8(ascii: "b"), count: 9) + [UInt8(ascii: "\"")]
        for bad: [UInt8] in [[0x0A], [0x00], [0x1F], [0xFF], [0x5C, 0x78], [0xED, 0xA0, 0x80]] {
            let error = try #require(throws: JSONSyntaxError.self) { try StrictJSON.validate(lead + bad + tail) }
            #expect(error.offset == prefix + 1, "\(bad): \(error)")
        }
        for good: [UInt8] in [[0x5C, 0x6E], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80], [0x7F], [0x20]] {
            try StrictJSON.validate(lead + good + tail)
        }
        let closed = lead + [UInt8(ascii: "\""), UInt8(ascii: "x")]
        let error = try #require(throws: JSONSyntaxError.self) { try StrictJSON.validate(closed) }
        #expect(error.reason == "unexpected text after the JSON value")
        #expect(error.offset == prefix + 2)
    }

    @Test("a hostile unquoted word is quoted only in part in the reason")
    func longWordsAreCutInReasons() throws {
        let error = try #require(throws: JSONSyntaxError.self) {
            try StrictJSON.validate(Array(("[" + String(repeating: "x", count: 10_000) + "]").utf8))
        }
        #expect(error.reason.count < 120)
        #expect(error.reason.hasPrefix("unquoted string 'xxxx"))
    }
}

/// A batch shaped like real traffic (docs/wire-format.md#batch), about 37 KB: 100 reports with paths, messages and
/// escaped snippets, some non-ASCII text. Shared by the table and by throughput measurements.
func realisticBatch() -> [UInt8] {
    var reports: [String] = []
    for index in 0..<100 {
        let snippet =
            #"{\"id\":\"pos_\#(index)\",\"author\":{\"name\":\"Zoë Dupont\"},"#
            + #"\"tags\":[\"swift\",\"json\"],\"score\":\#(index * 7 % 100).5,\"body\":null}"#
        reports.append(
            """
            {"occurred_at":"2026-11-21T09:\(String(10 + index % 50)):58.123Z","endpoint":"GET /v2/posts?page=\(index)",\
            "type":"Post","path":["results",\(index % 20),"title"],"kind":"keyNotFound",\
            "expected":"String","message":"No value associated with key title (\\"title\\") — café ✓.",\
            "snippet":"\(snippet)","count":\(index + 1)}
            """)
    }
    let batch = """
        {"batch_id":"1f0c6f0e-3c2a-4e0b-9a51-7d1d0c6c9e11","sent_at":"2026-11-21T10:00:00Z",
         "app":{"id":"com.example.shop","version":"5.2.0","build":"5201","platform":"iOS","os":"17.4"},
         "sdk":{"name":"decodewatch-swift","version":"0.1.0"},"install_id":"b7f3c2a0-5d1e-4f7a-9c3b-2e8d1f0a6b45",
         "decodes":[{"endpoint":"GET /v2/posts","count":120}],
         "reports":[
        \(reports.joined(separator: ",\n"))
        ]}
        """
    return Array(batch.utf8)
}

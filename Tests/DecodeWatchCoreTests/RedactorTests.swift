import DecodeWatchCore
import Foundation
import Testing

@Suite("Redaction (docs/wire-format.md#redaction)")
struct RedactorTests {
    let redactor = Redactor()

    @Test("values under sensitive keys are redacted, nested objects included")
    func sensitiveKeys() throws {
        let out = redactor.redact(
            #"{"id":1,"password":"hunter2","user_email":"x","accessToken":"abc","Authorization":{"a":"b"},"phoneNumber":5551234,"title":"ok"}"#
        )
        // Raw JSON: the redactor's output is any document, with no type to decode it into.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        for key in ["password", "user_email", "accessToken", "Authorization", "phoneNumber"] {
            #expect(object[key] as? String == "<redacted>", "\(key)")
        }
        #expect(object["title"] as? String == "ok")
        #expect(object["id"] as? Int == 1)
    }

    @Test(
        "values that look like personal data are redacted wherever they are",
        arguments: [
            "ann@example.com", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", "4111 1111 1111 1111",
            "4111-1111-1111-1111", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln",
        ])
    func sensitiveValues(value: String) throws {
        let out = redactor.redact(#"{"note":["\#(value)"]}"#)
        #expect(!out.contains(value))
        #expect(out.contains("<redacted>"))
    }

    @Test("ordinary values stay, including numbers that fail the Luhn check")
    func keepsOrdinaryValues() {
        let out = redactor.redact(
            #"{"title":"Hello","id":4111111111111112,"sha":"6dcb09b5b57875f334f61aebed695e2e4193db5e"}"#)
        #expect(out.contains("Hello"))
        #expect(out.contains("4111111111111112"))
        #expect(out.contains("6dcb09b5b57875f334f61aebed695e2e4193db5e"))
    }

    @Test("a snippet of every JSON type is written back compact, keys sorted, each value as sent")
    func everyType() {
        let out = redactor.redact(
            #"{"s":"text","b":true,"c":false,"n":null,"i":42,"f":1.5,"big":123456789012345678901234567890,"#
                + #""list":[1,"x",null,{"z":true},[]],"empty":{}}"#)
        #expect(
            out
                == #"{"b":true,"big":123456789012345678901234567890,"c":false,"empty":{},"f":1.5,"i":42,"#
                + #""list":[1,"x",null,{"z":true},[]],"n":null,"s":"text"}"#)
    }

    @Test("a card number sent as a JSON number is redacted")
    func cardNumberAsNumber() {
        #expect(!redactor.redact(#"{"n":4111111111111111}"#).contains("4111111111111111"))
    }

    @Test("a snippet cut mid-way is redacted as text, not passed through")
    func truncatedSnippet() {
        let out = redactor.redact(
            #"{"user":{"email":"ann@example.com","password":"hunter2","name":"Ann"},"contact":"bob@example.org","tok"#)
        #expect(!out.contains("ann@example.com"))
        #expect(!out.contains("hunter2"))
        #expect(!out.contains("bob@example.org"))
        #expect(out.contains("Ann"))
    }

    @Test("the sensitive keys are configurable")
    func configurable() {
        let custom = Redactor(sensitiveKeys: ["nickname"])
        #expect(custom.redact(#"{"nickname":"Al","password":"p"}"#).contains("\"password\":\"p\""))
        #expect(!custom.redact(#"{"nickname":"Al"}"#).contains("Al"))
    }
}

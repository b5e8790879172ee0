import DecodeWatchCore
import Foundation
import Testing

/// The forms a key and its value take in snippets and messages.
enum KeyForm: String, CaseIterable, Sendable {
    /// `{"key":"value"}`, valid JSON.
    case json
    /// `{"id":1,"key":"value` cut inside the value.
    case cutJSON
    /// `{"key": 4111 1111 1111 1111`, a bare value in text that only looks like JSON.
    case bareJSONValue
    /// `?key=value&page=2`.
    case query
    /// `key: value`, YAML or prose.
    case colon
    /// `key : 'value'`, YAML with a quoted value.
    case quotedColon
    /// `key = value`, INI and TOML.
    case spacedEquals
    /// `Key: value` on a header line.
    case header
    /// `{\"key\":\"value\"}`, JSON escaped inside a JSON string, cut.
    case escapedJSON

    static let secret = "s3cr3t-V4lue"

    /// The sample in this form and how it is redacted.
    func redact(key: String, with redactor: Redactor) -> String {
        let secret = Self.secret
        switch self {
        case .json: return redactor.redactSnippet(#"{"id":1,"\#(key)":"\#(secret)","title":"ok"}"#, maxBytes: 2048)
        case .cutJSON: return redactor.redactSnippet(#"{"id":1,"\#(key)":"\#(secret)"#, maxBytes: 2048)
        case .bareJSONValue: return redactor.redactSnippet(#"{"id":1,"\#(key)": \#(secret) and more"#, maxBytes: 2048)
        case .query: return redactor.redactText("GET /v1/me?page=2&\(key)=\(secret)&sort=asc")
        case .colon: return redactor.redactText("config:\n  \(key): \(secret)\n  retries: 3")
        case .quotedColon: return redactor.redactText("config:\n  \(key) : '\(secret)'\n  retries: 3")
        case .spacedEquals: return redactor.redactText("[db]\n\(key) = \(secret)\nport = 5432")
        case .header: return redactor.redactText("HTTP/1.1 401\r\n\(key): \(secret)\r\nAccept: */*\r\n")
        case .escapedJSON:
            return redactor.redactSnippet(#"{"body":"{\"\#(key)\":\"\#(secret)\",\"a\":1"#, maxBytes: 2048)
        }
    }
}

@Suite("Redaction: which keys are sensitive")
struct RedactorKeyTests {
    let redactor = Redactor()

    /// Spellings from real APIs that the default fragments must cover.
    static let sensitiveSpellings = [
        "password", "api_key", "apiKey", "API-KEY", "x-api-key", "X-Auth-Token", "access_token", "refreshToken",
        "card_number", "cardNumber", "client_secret", "user_email", "phoneNumber", "set-cookie", "Cookie",
        "sessionId", "private_key", "passwd", "pin", "PIN", "cardPin", "Authorization", "Proxy-Authorization",
        "otp", "ssn", "cvv", "iban", "csrf-token", "_csrf", "user.password", "user[password]", "basic_auth",
        "aws_secret_access_key", "date_of_birth", "credentials", "temp_clone_token",
    ]

    /// Keys of GitHub payloads and ordinary APIs that a careless substring rule would hit.
    static let ordinaryKeys = [
        "author", "authored", "author_association", "authored_at", "node_id", "login", "html_url", "sha", "id",
        "title", "shipping", "shipping_address", "pinned", "spinner", "className", "opinion", "description",
        "private", "permissions", "key", "keys_url", "signature", "ssh_url", "committer", "gravatar_id",
    ]

    @Test(
        "every spelling of a sensitive key is redacted in every form", arguments: sensitiveSpellings, KeyForm.allCases)
    func sensitiveKeyInEveryForm(key: String, form: KeyForm) {
        let out = form.redact(key: key, with: redactor)
        expectRedacted(out, hiding: KeyForm.secret)
    }

    @Test("isSensitive ignores case, separators and camel case", arguments: sensitiveSpellings)
    func sensitiveSpelling(key: String) {
        #expect(redactor.isSensitive(key: key))
    }

    @Test("ordinary keys are not sensitive, short fragments only match whole words", arguments: ordinaryKeys)
    func ordinaryKey(key: String) {
        #expect(!redactor.isSensitive(key: key))
        let out = redactor.redactSnippet(#"{"\#(key)":"plain value"}"#, maxBytes: 2048)
        #expect(out.contains("plain value"))
    }

    @Test("init(additionalKeys:) keeps the defaults and adds the operator's keys")
    func additionalKeys() {
        let custom = Redactor(additionalKeys: ["nickname", "x-tenant"])
        #expect(custom.isSensitive(key: "nickName"))
        #expect(custom.isSensitive(key: "X_Tenant_Id"))
        #expect(custom.isSensitive(key: "password"))
        #expect(!custom.isSensitive(key: "title"))
        #expect(!custom.redactText("nickname=Al&x-tenant=acme").contains("Al&"))
        #expect(!custom.redactText("nickname=Al&x-tenant=acme").contains("acme"))
    }

    @Test("a short operator key matches whole words only, a long one anywhere")
    func operatorKeyLengths() {
        let custom = Redactor(sensitiveKeys: ["zip", "postcode"])
        #expect(custom.isSensitive(key: "zip"))
        #expect(custom.isSensitive(key: "billingZip"))
        #expect(!custom.isSensitive(key: "zipball_url"))
        #expect(custom.isSensitive(key: "billing_postcode_v2"))
    }
}

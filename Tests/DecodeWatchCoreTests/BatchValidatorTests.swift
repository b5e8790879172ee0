import Foundation
import Testing

@testable import DecodeWatchCore

@Suite("Batch validation (docs/wire-format.md#batch)")
struct BatchValidatorTests {
    let received = RFC3339.date(from: "2026-11-21T10:00:00Z")!

    func validate(_ json: String, limits: IngestLimits = IngestLimits()) throws(BatchError) -> ValidatedBatch {
        try BatchValidator(limits: limits).validate(Data(json.utf8), receivedAt: received)
    }

    func batch(_ reports: String, extra: String = "") -> String {
        #"{"batch_id":"b1","app":{"id":"com.example.shop","version":"5.2.0"}\#(extra),"reports":[\#(reports)]}"#
    }

    @Test("the example batch of docs/wire-format.md#batch validates with its group key")
    func specExample() throws {
        let url = try #require(
            Bundle.module.url(forResource: "spec-example", withExtension: "json", subdirectory: "Fixtures"))
        let result = try BatchValidator().validate(try Data(contentsOf: url), receivedAt: received)
        #expect(result.rejected.isEmpty)
        let report = try #require(result.accepted.first)
        #expect(
            report.key
                == GroupKey(
                    app: "com.example.shop", endpoint: "GET /v2/posts", path: "$.results[*].title", kind: .keyNotFound))
        #expect(report.report.occurredAt == RFC3339.date(from: "2026-11-21T09:59:58.123Z"))
        #expect(result.decodes == [EndpointCount(endpoint: "GET /v2/posts", count: 120)])
        #expect(result.installID == "b7f3c2a0-5d1e-4f7a-9c3b-2e8d1f0a6b45")
    }

    @Test(
        "report problems become rejections that name the field",
        arguments: [
            (
                #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[],"kind":"oops"}"#,
                "reports[0].kind: unknown kind 'oops'"
            ),
            (
                #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[],"kind":"other","key_decoding":"snake"}"#,
                "reports[0].key_decoding: unknown key_decoding 'snake'; expected one of use_default_keys, "
                    + "convert_from_snake_case, custom"
            ),
            (#"{"endpoint":"GET /a","path":[],"kind":"other"}"#, "reports[0].occurred_at: required field is missing"),
            (
                #"{"occurred_at":"2026-11-21 09:00","endpoint":"GET /a","path":[],"kind":"other"}"#,
                "reports[0].occurred_at:"
            ),
            (
                #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[true],"kind":"other"}"#,
                "reports[0].path[0]:"
            ),
            (
                #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[1.5],"kind":"other"}"#,
                "reports[0].path[0]:"
            ),
            (
                #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[],"kind":"other","count":"2"}"#,
                "reports[0].count: expected an integer"
            ),
            (
                #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[],"kind":"other","count":1000001}"#,
                "reports[0].count: must be from 1 to 1000000"
            ),
            (
                #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[],"kind":null}"#,
                "reports[0].kind: must not be null"
            ),
            (
                #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[],"kind":"other","type":"\#(String(repeating: "T", count: 201))"}"#,
                "reports[0].type: longer than 200"
            ),
            (#"7"#, "reports[0]: expected an object"),
        ])
    func rejections(report: String, message: String) throws {
        let result = try validate(batch(report))
        #expect(result.accepted.isEmpty)
        #expect(result.rejected.first?.index == 0)
        #expect(result.rejected.first?.error.hasPrefix(message) == true, "\(result.rejected.first?.error ?? "")")
    }

    @Test(
        "an environment is kept as sent; absent, it is production; a bad one is dropped with a warning and counts as production",
        arguments: [
            (#","environment":"testflight""#, "testflight", nil),
            (#","environment":"Staging-2.eu_1""#, "Staging-2.eu_1", nil),
            ("", "production", nil),
            (#","environment":"App Store""#, "production", "environment: 'App Store' is not 1–64 characters"),
            (#","environment":"""#, "production", "environment: '' is not 1–64 characters"),
            (#","environment":"\#(String(repeating: "a", count: 65))""#, "production", "is not 1–64 characters"),
            (#","environment":"débug""#, "production", "environment: 'débug' is not"),
            (#","environment":7"#, "production", "environment: expected a string"),
        ] as [(String, String, String?)])
    func environment(extra: String, counted: String, warning: String?) throws {
        let report = #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":["id"],"kind":"keyNotFound"}"#
        let result = try validate(batch(report, extra: extra))
        #expect(result.environment == counted)
        #expect(result.accepted.count == 1)
        if let warning {
            #expect(result.warnings.count == 1)
            #expect(result.warnings.first?.contains(warning) == true, "\(result.warnings)")
        } else {
            #expect(result.warnings.isEmpty)
        }
    }

    @Test(
        "reports whose endpoints and paths differ only in ids make one group per form, named as the route template says"
    )
    func groupsByForm() throws {
        func report(_ endpoint: String, _ index: Int) -> String {
            #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"\#(endpoint)","path":["items",\#(index),"sku"],"kind":"other"}"#
        }
        let reports = [
            report("get /v2/posts/my-first-post", 1), report("GET /v2/posts/another-post?x=1", 2),
            report("GET /v2/users/7", 3), report("GET https://api.example.com/v2/users/8", 4),
        ]
        let normalizer = EndpointNormalizer(templates: [try #require(RouteTemplate("GET /v2/posts/{slug}"))])
        let result = try BatchValidator(normalizer: normalizer).validate(
            Data(batch(reports.joined(separator: ",")).utf8), receivedAt: received)
        #expect(result.rejected.isEmpty)
        #expect(result.groupKeys.map(\.endpoint) == ["GET /v2/posts/{slug}", "GET /v2/users/{id}"])
        #expect(result.groupKeys.map(\.path) == ["$.items[*].sku", "$.items[*].sku"])
        #expect(result.accepted.map(\.group) == [0, 0, 1, 1])
    }

    @Test("an endpoint repeated in a batch normalizes alike every time, a bad one is rejected at each index")
    func repeatedEndpoints() throws {
        func report(_ endpoint: String, _ field: String) -> String {
            #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"\#(endpoint)","path":["\#(field)"],"kind":"other"}"#
        }
        let reports = [
            report("GET /v2/posts/1?page=2", "a"), report("posts", "b"), report("get /v2/posts/2", "c"),
            report("posts", "d"), report("GET /v2/posts/1?page=2", "e"),
        ]
        let result = try validate(batch(reports.joined(separator: ",")))
        #expect(result.accepted.map(\.key.endpoint) == Array(repeating: "GET /v2/posts/{id}", count: 3))
        #expect(result.accepted.map(\.key.path) == ["$.a", "$.c", "$.e"])
        #expect(result.rejected.map(\.index) == [1, 3])
        #expect(result.rejected.allSatisfy { $0.error.contains("expected \"METHOD /path\", got 'posts'") })
        #expect(result.rejected.map { $0.error.hasPrefix("reports[\($0.index)].endpoint") } == [true, true])
    }

    @Test("a path of more than 64 elements is rejected; 64 is accepted")
    func pathLength() throws {
        let long = Array(repeating: "0", count: 65).joined(separator: ",")
        let ok = Array(repeating: "0", count: 64).joined(separator: ",")
        let result = try validate(
            batch(
                #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[\#(long)],"kind":"other"},"#
                    + #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[\#(ok)],"kind":"other"}"#))
        #expect(result.rejected.map(\.index) == [0])
        #expect(result.accepted.count == 1)
    }

    @Test("a report dated far in the future is clamped to the receive time")
    func futureClamp() throws {
        let result = try validate(
            batch(#"{"occurred_at":"2030-01-01T00:00:00Z","endpoint":"GET /a","path":[],"kind":"other"}"#))
        #expect(result.accepted.first?.report.occurredAt == received)
    }

    @Test("only each group's sample keeps its snippet: its last report of the latest time, escapes resolved")
    func snippetsOfSamples() throws {
        func report(_ time: String, _ path: String, _ snippet: String) -> String {
            #"{"occurred_at":"2026-11-21T09:00:\#(time)Z","endpoint":"GET /a","path":["\#(path)"],"kind":"other","snippet":"\#(snippet)"}"#
        }
        let result = try validate(
            batch(
                [
                    report("05", "a", #"{\"n\":1}"#), report("09", "a", #"{\"n\":2}"#), report("09", "b", "b1"),
                    report("09", "a", #"{\"n\":3,\"s\":\"\u00e9\"}"#), report("01", "a", "late but older"),
                ].joined(separator: ",")))
        #expect(result.accepted.map(\.report.snippet) == [nil, nil, "b1", #"{"n":3,"s":"é"}"#, nil])
        let aggregate = BatchAggregate(result, redactor: Redactor())
        #expect(aggregate.groups.map(\.sample.snippet) == [#"{"n":3,"s":"é"}"#, "b1"])
    }

    @Test("a snippet that is not a string rejects its report, whether or not it would be kept")
    func snippetOfWrongType() throws {
        let result = try validate(
            batch(
                #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[],"kind":"other","snippet":{"a":1}},"#
                    + #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[],"kind":"other","snippet":null}"#
            ))
        #expect(result.rejected.map(\.error) == ["reports[0].snippet: expected a string"])
        #expect(result.accepted.map(\.report.snippet) == [nil])
    }

    @Test("kept snippets are cut at 2048 bytes without splitting a character; messages at 1000 characters")
    func truncation() throws {
        let snippet = String(repeating: "é", count: 1500)  // 3000 bytes
        let result = try validate(
            batch(
                #"{"occurred_at":"2026-11-21T09:00:00Z","endpoint":"GET /a","path":[],"kind":"other","snippet":"\#(snippet)","message":"\#(String(repeating: "m", count: 1200))"}"#
            ))
        let aggregate = BatchAggregate(result, redactor: Redactor())
        let sample = try #require(aggregate.groups.first?.sample)
        #expect(sample.snippet?.utf8.count == 2048)
        #expect(sample.snippet?.allSatisfy { $0 == "é" } == true)
        #expect(sample.message?.count == 1000)
    }

    @Test(
        "batch-level problems throw with a code and a message naming the field",
        arguments: [
            ("{", BatchError.Code.invalidJSON, "not valid JSON"),
            ("\"text\"", .invalidJSON, "JSON object"),
            (#"{"app":{"id":"a"},"reports":[]}"#, .invalidBatch, "batch_id"),
            (#"{"batch_id":"","app":{"id":"a"},"reports":[]}"#, .invalidBatch, "batch_id"),
            (#"{"batch_id":"b","app":"a","reports":[]}"#, .invalidBatch, "app"),
            (#"{"batch_id":"b","app":{"id":"a"},"reports":{}}"#, .invalidBatch, "reports"),
        ])
    func batchErrors(json: String, code: BatchError.Code, mentions: String) {
        #expect {
            try validate(json)
        } throws: { error in
            guard let error = error as? BatchError else { return false }
            return error.code == code && error.message.contains(mentions)
        }
    }

    @Test(
        "header problems never refuse the batch: the value is cut or dropped and named in warnings",
        arguments: [
            (
                #"{"batch_id":"b","app":{"id":"a","version":"\#(String(repeating: "9", count: 65))"},"reports":[]}"#,
                "app.version: 65 characters, cut to 64"
            ),
            (
                #"{"batch_id":"b","app":{"id":"a"},"install_id":"\#(String(repeating: "i", count: 129))","reports":[]}"#,
                "install_id: 129 characters, cut to 128"
            ),
            (#"{"batch_id":"b","app":{"id":"a"},"sent_at":"now","reports":[]}"#, "sent_at: 'now' is not an RFC 3339"),
            (
                #"{"batch_id":"b","app":{"id":"a"},"decodes":[{"endpoint":"GET /a","count":-1}],"reports":[]}"#,
                "decodes[0].count: must be a whole number from 0 to 1000000000, got -1; dropped"
            ),
            (
                #"{"batch_id":"b","app":{"id":"a"},"decodes":[{"endpoint":"nope","count":1}],"reports":[]}"#,
                "decodes[0].endpoint: expected \"METHOD /path\", got 'nope'; dropped"
            ),
            (#"{"batch_id":"b","app":{"id":"a"},"decodes":[{"count":1}],"reports":[]}"#, "decodes[0].endpoint"),
        ])
    func headerWarnings(json: String, warning: String) throws {
        let batch = try validate(json)
        #expect(batch.warnings.count == 1)
        #expect(batch.warnings.first?.hasPrefix(warning) == true, "\(batch.warnings)")
    }

    @Test("a batch with thousands of bad decode entries lists 20 warnings and counts the rest")
    func warningsAreCapped() throws {
        let entries = Array(repeating: #"{"endpoint":"nope","count":1}"#, count: 500).joined(separator: ",")
        let batch = try validate(#"{"batch_id":"b","app":{"id":"a"},"decodes":[\#(entries)],"reports":[]}"#)
        #expect(batch.warnings.count == 21)
        #expect(batch.warnings.last == "… and 480 more warnings")
    }

    @Test("the report limit is checked before reports are decoded")
    func reportLimit() {
        let reports = Array(repeating: "{}", count: 11).joined(separator: ",")
        #expect(throws: BatchError.self) { try validate(batch(reports), limits: IngestLimits(maxReports: 10)) }
        #expect((try? validate(batch(reports), limits: IngestLimits(maxReports: 11)))?.rejected.count == 11)
    }
}

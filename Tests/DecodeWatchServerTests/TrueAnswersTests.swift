import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// Answers that name what they could not find, so that an empty list or a pass is never a typo's result.
@Suite("Answers say what they never saw")
struct TrueAnswersTests {
    /// One app with two versions in production and staging, failing on one endpoint.
    static func seed(_ collector: TestCollector) async throws {
        for (version, environment) in [("5.2.0", "production"), ("5.1.9", "staging")] {
            let answer = try await collector.ingest(
                Batches.batch(
                    version: version, decodes: [["endpoint": "GET /v2/posts", "count": 2_000]],
                    environment: environment, reports: [Batches.report()]))
            #expect(answer.status == 202, "\(answer.text)")
        }
    }

    @Test("a filter value never stored gets a warning that names it and the known values, nearest first")
    func unknownValuesWarn() async throws {
        try await TestCollector.run(reach: .router, seed: Self.seed) { collector in
            let typo = try await collector.fields("app=com.exmaple.shop")
            #expect(typo.fields.isEmpty)
            #expect(
                typo.warnings == [
                    QueryWarning(
                        code: "unknown_app",
                        message: "no reports from app 'com.exmaple.shop'; known apps: com.example.shop.")
                ])
            let version = try await collector.fields("app=com.example.shop&version=5.3&environment=prod")
            #expect(version.warnings.map(\.code) == ["unknown_version", "unknown_environment"])
            #expect(
                version.warnings.first?.message
                    == "no reports from version '5.3' of app 'com.example.shop'; known versions: 5.1.9, 5.2.0.")
            #expect(
                version.warnings.last?.message
                    == "no reports from environment 'prod'; known environments: production, staging.")
            let endpoint = try await collector.fields("endpoint=GET%20/v2/users&kind=typeMismatch")
            #expect(endpoint.warnings.map(\.code) == ["unknown_endpoint", "unknown_kind"])
        }
    }

    @Test("a known value that matched nothing in the window is an empty answer without warnings")
    func knownValuesDoNotWarn() async throws {
        try await TestCollector.run(reach: .router, seed: Self.seed) { collector in
            let quiet = try await collector.fields("app=com.example.shop&version=5.1.9&environment=production")
            #expect(quiet.fields.isEmpty)
            #expect(quiet.warnings.isEmpty)
            // Raw JSON: the key is there as an empty list, which decoding into FieldsSummary would not tell from absent.
            let answer = try await collector.send("GET", "/v1/fields")
            #expect((answer.json["warnings"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("every GET of the API refuses a parameter it does not read, naming the nearest one")
    func unknownParameters() async throws {
        try await TestCollector.run(reach: .router, seed: Self.seed) { collector in
            let cases = [
                ("/v1/fields?sinse=1d", "unknown parameter 'sinse'; did you mean 'since'?"),
                ("/v1/drift?verdikt=app_stricter_than_spec", "unknown parameter 'verdikt'; did you mean 'verdict'?"),
                ("/v1/check?app=a&version=1&basline=2", "unknown parameter 'basline'; did you mean 'baseline'?"),
                ("/v1/contracts?ap=x", "unknown parameter 'ap'; did you mean 'app'?"),
                ("/v1/alerts?verbose=1", "unknown parameter 'verbose'; this route takes none."),
            ]
            for (path, message) in cases {
                let answer = try await collector.send("GET", path)
                #expect(answer.status == 400, "\(path)")
                #expect(answer.errorCode == "unknown_parameter", "\(path)")
                #expect(answer.errorMessage == message, "\(path)")
            }
            let group = try #require(try await collector.fields().fields.first?.group)
            #expect(try await collector.send("GET", "/v1/groups/\(group)?history=all").status == 400)
            #expect(try await collector.send("GET", "/v1/groups/\(group)").status == 200)
        }
    }

    @Test("status filters the list; a muted group says muted and when its mute ends")
    func statusFilterAndMuted() async throws {
        try await TestCollector.run(reach: .router) { collector in
            _ = try await collector.ingest(
                Batches.batch(reports: [Batches.report(path: ["a"]), Batches.report(path: ["b"], count: 2)]))
            let fields = try await collector.fields().fields
            let muted = try #require(fields.first { $0.path == "$.b" }).group
            let open = try #require(fields.first { $0.path == "$.a" }).group
            #expect(try await collector.send("POST", "/v1/groups/\(muted)/mute?for=24h").status == 200)

            let all = try await collector.fields()
            let entry = try #require(all.fields.first { $0.group == muted })
            #expect(entry.status == .muted)
            let until = try #require(entry.mute?.until)
            #expect(abs(until.timeIntervalSinceNow - 86_400) < 120)
            #expect(all.fields.first { $0.group == open }?.status == .new)

            #expect(try await collector.fields("status=muted").fields.map(\.group) == [muted])
            #expect(try await collector.fields("status=new").fields.map(\.group) == [open])
            #expect(try await collector.fields("status=all").fields.count == 2)
            #expect(try await collector.fields("status=resolved").fields.isEmpty)

            // Raw JSON: a mute by time writes failures_left as null, not absent.
            let raw = try await collector.send("GET", "/v1/fields?status=muted")
            let first = try #require((raw.json["fields"] as? [[String: Any]])?.first)
            #expect(first["status"] as? String == "muted")
            #expect((first["mute"] as? [String: Any])?["failures_left"] is NSNull)

            let bad = try await collector.send("GET", "/v1/fields?status=silenced")
            #expect(bad.status == 400)
            #expect(
                bad.errorMessage
                    == "status 'silenced' is not a status; use new, regressed, ongoing, resolved, muted or all.")
        }
    }

    @Test("a baseline with no decodes in the window is insufficient, named, never a pass")
    func baselineWithoutDecodes() async throws {
        try await TestCollector.run(reach: .router) { collector in
            _ = try await collector.ingest(
                Batches.batch(decodes: [["endpoint": "GET /v2/posts", "count": 5_000]], reports: []))
            _ = try await collector.ingest(
                Batches.batch(version: "5.1.9", decodes: [["endpoint": "GET /v2/other", "count": 10]], reports: []))
            let known = try await collector.send(
                "GET", "/v1/check?app=com.example.shop&version=5.2.0&baseline=5.1.9&since=7d")
            #expect(try known.decoded(ReleaseVerdict.self).verdict == .pass)
            #expect(try known.decoded(ReleaseVerdict.self).baselineDecodes == 10)

            let never = try await collector.send(
                "GET", "/v1/check?app=com.example.shop&version=5.2.0&baseline=5.1.8&since=7d")
            #expect(never.status == 200)
            let insufficient = try never.decoded(ReleaseVerdict.self)
            #expect(insufficient.verdict == .insufficient)
            #expect(insufficient.baselineDecodes == 0)
            #expect(
                insufficient.warnings.first?.message
                    == "no reports from version '5.1.8' of app 'com.example.shop'; known versions: 5.1.9, 5.2.0.")
        }
    }

    @Test("the verdict's sentence names a baseline that has no decodes")
    func baselineSentence() {
        let query = ReleaseCheckQuery(
            app: "com.example.shop", version: "5.2.0", baseline: "5.1.9", since: Date(timeIntervalSince1970: 0),
            until: Date(timeIntervalSince1970: 3600))
        let verdict = ReleaseJudge.judge(
            query, current: VersionCounts(decodes: ["GET /v2/posts": 5_000], fields: []), baseline: .empty)
        #expect(verdict.verdict == .insufficient)
        #expect(verdict.summary.hasPrefix("com.example.shop 5.2.0 cannot be judged against 5.1.9: no decodes of 5.1.9"))
    }
}

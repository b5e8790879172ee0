import DecodeWatchCore
import Foundation
import Testing

/// The release check's judgement (docs/api.md#release-check): which fields fail, and when the version cannot be
/// judged.
@Suite struct ReleaseJudgeTests {
    static let since = Date(timeIntervalSince1970: 1_795_000_000)
    static let until = since.addingTimeInterval(86_400)

    /// A query with the default thresholds (1 %, 3×, 1000 decodes) unless told otherwise.
    static func query(baseline: String? = nil, maxRate: String = "1%", maxRatio: Decimal = 3, minDecodes: Int = 1000)
        -> ReleaseCheckQuery
    {
        var query = ReleaseCheckQuery(
            app: "com.example.shop", version: "5.3.0", baseline: baseline, since: since, until: until)
        query.maxRate = try! ReleaseCheckQuery.parse(
            app: "a", version: "v", baseline: nil, since: nil, maxRate: maxRate, maxRatio: nil, minDecodes: nil,
            now: until, spelling: .query
        ).maxRate
        query.maxRatio = maxRatio
        query.minDecodes = minDecodes
        return query
    }

    /// One field `title` on `GET /v2/posts` with `count` reports over `decodes` decodes of its endpoint.
    static func counts(_ count: Int, of decodes: Int, group: String = "title") -> VersionCounts {
        VersionCounts(
            decodes: decodes > 0 ? ["GET /v2/posts": decodes] : [:],
            fields: count > 0
                ? [
                    VersionField(
                        group: group, endpoint: "GET /v2/posts", path: "$.\(group)", kind: .keyNotFound, count: count)
                ]
                : [])
    }

    @Test(
        "without a baseline a field fails from exactly max-rate, and passes below it",
        arguments: [
            // (reports, decodes, max-rate, verdict)
            (10, 1000, "1%", ReleaseVerdict.Outcome.fail),  // exactly 1 %
            (9, 1000, "1%", .pass),  // 0.9 %
            (0, 5000, "1%", .pass),  // no failures at all
            (5, 1000, "0.5%", .fail),  // exactly 0.5 %
            (4, 1000, "0.5%", .pass),
            (1, 3000, "0.0003333", .fail),  // 1/3000 = 0.000333… is just above
            (1, 3000, "0.0003334", .pass),  // and just below this
            (3, 10_000, "0.0003", .fail),  // exactly 0.0003 as a fraction
            (7, 1000, "0.007", .fail),  // 0.007 is not exact in binary floating point; judged as written
        ])
    func rateAlone(reports: Int, decodes: Int, maxRate: String, expected: ReleaseVerdict.Outcome) {
        let verdict = ReleaseJudge.judge(
            Self.query(maxRate: maxRate), current: Self.counts(reports, of: decodes), baseline: nil)
        #expect(verdict.verdict == expected)
        #expect(verdict.decodes == decodes)
        #expect(verdict.fields.map(\.group) == (verdict.verdict == .fail ? ["title"] : []))
    }

    @Test(
        "with a baseline a field fails only from max-ratio times its baseline rate, exactly included",
        arguments: [
            // (reports in 5.3.0 of 1000 decodes, reports in 5.2.0 of 1000 decodes, max-ratio, verdict)
            (30, 10, Decimal(3), ReleaseVerdict.Outcome.fail),  // 3 % against 1 %: exactly 3×
            (29, 10, 3, .pass),  // 2.9×: over max-rate, under max-ratio
            (15, 10, Decimal(string: "1.5")!, .fail),  // exactly 1.5×
            (14, 10, Decimal(string: "1.5")!, .pass),
            (20, 0, 3, .fail),  // new in 5.3.0: fails on the rate alone
            (9, 0, 3, .pass),  // new, but under max-rate
            (9, 1, 3, .pass),  // 9× the baseline, but under max-rate
        ])
    func againstBaseline(reports: Int, baselineReports: Int, maxRatio: Decimal, expected: ReleaseVerdict.Outcome) throws
    {
        let verdict = ReleaseJudge.judge(
            Self.query(baseline: "5.2.0", maxRatio: maxRatio), current: Self.counts(reports, of: 1000),
            baseline: Self.counts(baselineReports, of: 1000))
        #expect(verdict.verdict == expected)
        #expect(verdict.baseline == "5.2.0")
        if expected == .fail {
            let field = try #require(verdict.fields.first)
            #expect(field.rate == Double(reports) / 1000)
            #expect(field.baselineRate == Double(baselineReports) / 1000)
            #expect(field.count == reports)
            #expect(
                field.reason
                    == (baselineReports == 0
                        ? "New in 5.3.0 (no reports in 5.2.0), and its rate is at least the maximum of 1%."
                        : "Its rate is at least the maximum of 1%, and \(Decimal(reports) / Decimal(baselineReports))× its rate in 5.2.0 "
                            + "(maximum \(maxRatio)×)."))
        }
    }

    @Test("fewer decodes than min-decodes is insufficient, never a pass; exactly min-decodes is judged")
    func insufficientDecodes() {
        let few = ReleaseJudge.judge(Self.query(), current: Self.counts(500, of: 999), baseline: nil)
        #expect(few.verdict == .insufficient)
        #expect(few.decodes == 999)
        #expect(few.fields.isEmpty)
        #expect(few.summary.contains("only 999 decodes"))

        let enough = ReleaseJudge.judge(Self.query(), current: Self.counts(0, of: 1000), baseline: nil)
        #expect(enough.verdict == .pass)
    }

    @Test("an unknown app or version is insufficient with 0 decodes and a sentence saying so")
    func unknownVersion() {
        let verdict = ReleaseJudge.judge(Self.query(baseline: "5.2.0"), current: .empty, baseline: .empty)
        #expect(verdict.verdict == .insufficient)
        #expect(verdict.decodes == 0)
        #expect(verdict.summary.contains("no decodes of this app and version were recorded"))
    }

    @Test("a field whose endpoint has no decodes of the version cannot be judged: its rate is never guessed")
    func fieldWithoutDecodes() throws {
        var counts = Self.counts(0, of: 0)
        counts.decodes = ["GET /v2/users": 5000]
        counts.fields = [
            VersionField(group: "author", endpoint: "GET /v2/posts", path: "$.author", kind: .typeMismatch, count: 3)
        ]
        let verdict = ReleaseJudge.judge(Self.query(), current: counts, baseline: nil)
        #expect(verdict.verdict == .insufficient)
        let field = try #require(verdict.fields.first)
        #expect(field.rate == nil)
        #expect(field.outcome == .insufficient)
        #expect(field.reason == "5.3.0 sent no decodes of GET /v2/posts, so the rate of its 3 failures is unknown.")

        // A failing field elsewhere makes the verdict a failure all the same.
        counts.decodes["GET /v2/posts"] = nil
        counts.fields.append(
            VersionField(group: "name", endpoint: "GET /v2/users", path: "$.name", kind: .keyNotFound, count: 100))
        let failing = ReleaseJudge.judge(Self.query(), current: counts, baseline: nil)
        #expect(failing.verdict == .fail)
        #expect(failing.fields.map(\.group) == ["name", "author"])
    }

    @Test("a baseline that reported the field but no decodes of its endpoint leaves the ratio unknown")
    func baselineWithoutDecodes() throws {
        var baseline = Self.counts(10, of: 0)
        baseline.decodes["GET /v2/users"] = 500
        let verdict = ReleaseJudge.judge(
            Self.query(baseline: "5.2.0"), current: Self.counts(50, of: 1000), baseline: baseline)
        #expect(verdict.verdict == .insufficient)
        #expect(verdict.baselineDecodes == 500)
        let field = try #require(verdict.fields.first)
        #expect(field.baselineRate == nil)
        #expect(field.reason.contains("5.2.0 sent no decodes of GET /v2/posts"))
    }

    @Test("a baseline with no decodes at all is insufficient before any field is judged, even one that would pass")
    func baselineWithNoDecodesAtAll() {
        let verdict = ReleaseJudge.judge(
            Self.query(baseline: "5.2.0"), current: Self.counts(1, of: 1000), baseline: .empty)
        #expect(verdict.verdict == .insufficient)
        #expect(verdict.baselineDecodes == 0)
        #expect(verdict.fields.isEmpty)
        #expect(verdict.summary.contains("cannot be judged against 5.2.0: no decodes of 5.2.0"))
        let without = ReleaseJudge.judge(Self.query(), current: Self.counts(1, of: 1000), baseline: nil)
        #expect(without.verdict == .pass)
        #expect(without.baselineDecodes == nil)
    }

    @Test("the JSON document has exactly the keys of the contract, null where a value is unknown")
    func jsonKeys() throws {
        let verdict = ReleaseJudge.judge(Self.query(), current: Self.counts(20, of: 1000), baseline: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Raw JSON: which keys are written, and which as null rather than left out.
        let object = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(verdict)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "verdict", "app", "version", "baseline", "since", "until", "decodes", "baseline_decodes", "fields",
                "warnings",
            ])
        #expect(object["baseline"] is NSNull)
        #expect(object["baseline_decodes"] is NSNull)
        #expect((object["warnings"] as? [Any])?.isEmpty == true)
        #expect(object["since"] as? String == RFC3339.string(from: Self.since))
        let field = try #require((object["fields"] as? [[String: Any]])?.first)
        #expect(
            Set(field.keys) == ["group", "path", "endpoint", "kind", "rate", "baseline_rate", "count", "reason"])
        #expect(field["baseline_rate"] is NSNull)
        #expect(field["rate"] as? Double == 0.02)
    }
}

/// Reading the release check's parameters: each bad value gets a sentence naming it, as the caller spells it.
@Suite struct ReleaseCheckQueryTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func parse(
        app: String? = "com.example.shop", version: String? = "5.3.0", baseline: String? = nil, since: String? = nil,
        maxRate: String? = nil, maxRatio: String? = nil, minDecodes: String? = nil,
        spelling: ReleaseCheckQuery.Spelling = .flags
    ) throws(QueryError) -> ReleaseCheckQuery {
        try ReleaseCheckQuery.parse(
            app: app, version: version, baseline: baseline, since: since, maxRate: maxRate, maxRatio: maxRatio,
            minDecodes: minDecodes, now: now, spelling: spelling)
    }

    @Test("defaults: the last 24 hours, 1 %, 3×, 1000 decodes")
    func defaults() throws {
        let query = try Self.parse()
        #expect(query.since == Self.now.addingTimeInterval(-86_400))
        #expect(query.until == Self.now)
        #expect(query.maxRate == Decimal(string: "0.01"))
        #expect(query.maxRatio == 3)
        #expect(query.minDecodes == 1000)
    }

    @Test(
        "max-rate is a percentage or a fraction below 1",
        arguments: [("1%", "0.01"), ("0.5%", "0.005"), ("0.01", "0.01"), ("100%", "1"), ("12.5%", "0.125")])
    func rates(text: String, fraction: String) throws {
        #expect(try Self.parse(maxRate: text).maxRate == Decimal(string: fraction))
    }

    @Test(
        "a bad value is refused with a sentence naming the flag, or the query parameter",
        arguments: [
            (nil, nil, nil, "--app is required"),
            ("0%", nil, nil, "--max-rate '0%' must be a percentage"),
            ("1", nil, nil, "--max-rate '1' must be a percentage"),
            ("-1%", nil, nil, "--max-rate '-1%'"),
            ("101%", nil, nil, "--max-rate '101%'"),
            ("1e-2", nil, nil, "--max-rate '1e-2'"),
            (nil, "0", nil, "--max-ratio '0' must be a positive number"),
            (nil, "three", nil, "--max-ratio 'three'"),
            (nil, nil, "0", "--min-decodes '0' must be a whole number of at least 1"),
            (nil, nil, "1k", "--min-decodes '1k'"),
        ] as [(String?, String?, String?, String)])
    func badValues(maxRate: String?, maxRatio: String?, minDecodes: String?, message: String) {
        let app: String? = message.hasPrefix("--app") ? nil : "com.example.shop"
        #expect {
            _ = try Self.parse(app: app, maxRate: maxRate, maxRatio: maxRatio, minDecodes: minDecodes)
        } throws: { ($0 as? QueryError)?.message.hasPrefix(message) == true }
        let spelled = message.replacingOccurrences(of: "--max-rate", with: "max_rate")
            .replacingOccurrences(of: "--max-ratio", with: "max_ratio")
            .replacingOccurrences(of: "--min-decodes", with: "min_decodes").replacingOccurrences(
                of: "--app", with: "app")
        #expect {
            _ = try Self.parse(app: app, maxRate: maxRate, maxRatio: maxRatio, minDecodes: minDecodes, spelling: .query)
        } throws: { ($0 as? QueryError)?.message.hasPrefix(spelled) == true }
    }

    @Test("a missing version, a baseline equal to the version and a bad window are refused")
    func otherRefusals() {
        #expect(throws: QueryError.self) { try Self.parse(version: nil) }
        #expect(throws: QueryError.self) { try Self.parse(version: "") }
        #expect(throws: QueryError("--baseline '5.3.0' must differ from --version.")) {
            try Self.parse(baseline: "5.3.0")
        }
        #expect(throws: QueryError.self) { try Self.parse(since: "yesterday") }
    }
}

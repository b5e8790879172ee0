import Foundation
import Testing

@testable import DecodeWatchCore

/// Builds digests from hand-made inputs, so classification and rendering are tested without storage.
@Suite struct DigestBuilderTests {
    static let period = DigestPeriod(
        since: RFC3339.date(from: "2026-11-20T00:00:00Z")!, until: RFC3339.date(from: "2026-11-21T00:00:00Z")!)
    static let now = RFC3339.date(from: "2026-11-21T00:05:00Z")!

    /// A group with `current` failures in the last hour of the period and `previous` in the first hour before it.
    struct Spec {
        var id: String
        var current: Int
        var previous: Int
        var firstSeen: String = "2026-11-01T00:00:00Z"
        var state: GroupLifecycle.State = .open
        var regressedAt: String?
        var regressedVersion: String?
        var endpoint = "GET /v2/posts"
        var path = "$.results[*].title"
    }

    static func input(_ specs: [Spec]) -> DigestInput {
        let lastHour = Hour.index(of: period.until) - 1
        let previousHour = Hour.index(of: period.previous.since)
        func field(_ spec: Spec, count: Int) -> FieldSummary {
            FieldSummary(
                group: spec.id, app: "com.example.shop", endpoint: spec.endpoint, path: spec.path, kind: .keyNotFound,
                expected: "String", count: count, installs: max(1, count / 2), rate: 0.25,
                firstSeen: RFC3339.date(from: spec.firstSeen)!,
                lastSeen: period.until.addingTimeInterval(-60), versions: ["5.2.0": count], status: .ongoing,
                sample: Sample())
        }
        var hourly: [String: [Int64: Int]] = [:]
        var lifecycles: [String: GroupLifecycle] = [:]
        for spec in specs {
            var hours: [Int64: Int] = [:]
            if spec.current > 0 { hours[lastHour] = spec.current }
            if spec.previous > 0 { hours[previousHour] = spec.previous }
            hourly[spec.id] = hours
            lifecycles[spec.id] = GroupLifecycle(
                state: spec.state, firstSeen: RFC3339.date(from: spec.firstSeen)!,
                resolvedAt: spec.state == .open ? nil : RFC3339.date(from: "2026-11-18T00:00:00Z"),
                regressedAt: spec.regressedAt.flatMap(RFC3339.date(from:)), regressedVersion: spec.regressedVersion)
        }
        let current = specs.filter { $0.current > 0 }
        let previous = specs.filter { $0.previous > 0 }
        return DigestInput(
            period: period, app: nil, current: current.map { field($0, count: $0.current) },
            previous: previous.map { field($0, count: $0.previous) }, hourly: hourly, lifecycles: lifecycles,
            currentTotals: (
                count: current.reduce(0) { $0 + $1.current }, groups: current.count, installs: 7, endpoints: 2
            ),
            previousTotals: (
                count: previous.reduce(0) { $0 + $1.previous }, groups: previous.count, installs: 3, endpoints: 1
            ))
    }

    static let specs = [
        Spec(id: "aaaa000000000001", current: 40, previous: 10),  // growing
        Spec(id: "aaaa000000000002", current: 25, previous: 0, firstSeen: "2026-11-20T03:00:00Z"),  // new
        Spec(
            id: "aaaa000000000003", current: 30, previous: 0, state: .regressed, regressedAt: "2026-11-20T05:00:00Z",
            regressedVersion: "5.3.0"),  // regressed, not growing
        Spec(id: "aaaa000000000004", current: 5, previous: 30, endpoint: "GET /v2/users"),  // fading
        Spec(id: "aaaa000000000005", current: 0, previous: 50, endpoint: "GET /v2/users"),  // fading, gone
        Spec(id: "aaaa000000000006", current: 12, previous: 5),  // steady: tiny numbers
    ]

    @Test("sections are exclusive: new and regressed first, then growing and fading by the rule")
    func classification() {
        let digest = DigestBuilder.build(Self.input(Self.specs), generatedAt: Self.now)
        #expect(digest.new.map(\.group) == ["aaaa000000000002"])
        #expect(digest.regressed.map(\.group) == ["aaaa000000000003"])
        #expect(digest.regressed.first?.regressedVersion == "5.3.0")
        #expect(digest.growing.map(\.group) == ["aaaa000000000001"])
        #expect(digest.fading.map(\.group) == ["aaaa000000000005", "aaaa000000000004"])
        #expect(digest.totals.count == 112)
        #expect(digest.totals.previousCount == 95)
        #expect(
            (digest.totals.new, digest.totals.regressed, digest.totals.growing, digest.totals.fading) == (1, 1, 1, 2))
    }

    @Test("hourly series cover the period hour by hour; previous counts come from the series")
    func hourlySeries() {
        let digest = DigestBuilder.build(Self.input(Self.specs), generatedAt: Self.now)
        let growing = digest.growing[0]
        #expect(growing.hourly.count == 24)
        #expect(growing.hourly.last == 40)
        #expect(growing.hourly.dropLast().allSatisfy { $0 == 0 })
        #expect(growing.previousCount == 10)
        let gone = digest.fading[0]
        #expect(gone.count == 0 && gone.previousCount == 50 && gone.installs == 0)
    }

    @Test("endpoints are ordered by count, each with its top fields, capped by the limits")
    func endpoints() {
        let digest = DigestBuilder.build(
            Self.input(Self.specs), limits: DigestLimits(perSection: 1, endpoints: 5, fieldsPerEndpoint: 2),
            generatedAt: Self.now)
        #expect(digest.endpoints.map(\.endpoint) == ["GET /v2/posts", "GET /v2/users"])
        #expect(digest.endpoints[0].count == 107)
        #expect(digest.endpoints[0].groups == 4)
        #expect(digest.endpoints[0].fields.map(\.count) == [40, 30])
        #expect(digest.fading.count == 1)
        #expect(digest.totals.fading == 2)
    }

    @Test("the JSON format round-trips, with snake_case keys and RFC 3339 times")
    func json() throws {
        let digest = DigestBuilder.build(Self.input(Self.specs), generatedAt: Self.now)
        let text = DigestJSONRenderer.render(digest)
        #expect(text.contains("\"previous_period\""))
        #expect(text.contains("\"regressed_version\" : \"5.3.0\""))
        #expect(text.contains("\"generated_at\" : \"2026-11-21T00:05:00Z\""))
        #expect(text.contains("\"rate\" : null"))  // the vanished group has no rate in the period
        #expect(try DigestJSONRenderer.decode(Data(text.utf8)) == digest)
        // Raw JSON: which keys are written, and which as null rather than left out.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["app"] is NSNull)
        #expect(object["environment"] is NSNull)
        #expect(
            Set(object.keys) == [
                "version", "app", "environment", "generated_at", "period", "previous_period", "growth_rule", "totals",
                "new", "regressed", "growing", "fading", "endpoints", "data_since",
            ])
        #expect(object["data_since"] is NSNull)
    }

    @Test("a digest of one environment names it in the Markdown and HTML headings and in its JSON")
    func environmentNamed() throws {
        var input = Self.input(Self.specs)
        input.app = "com.example.shop"
        input.environment = "staging"
        let digest = DigestBuilder.build(input, generatedAt: Self.now)
        #expect(
            DigestMarkdownRenderer.render(digest).hasPrefix(
                "# DecodeWatch digest for com.example.shop, staging environment\n"))
        #expect(
            DigestHTMLRenderer.render(digest).contains(
                "<h1>DecodeWatch digest for com.example.shop, staging environment</h1>"))
        let json = Data(DigestJSONRenderer.render(digest).utf8)
        #expect(try DigestJSONRenderer.decode(json).environment == "staging")
        #expect(try DigestJSONRenderer.decode(json) == digest)
    }

    @Test("Markdown names every section, the regressing version and the rule; Slack style has no # headings")
    func markdown() {
        let digest = DigestBuilder.build(Self.input(Self.specs), generatedAt: Self.now)
        let text = DigestMarkdownRenderer.render(digest)
        for heading in ["## New (1)", "## Regressed (1)", "## Growing (1)", "## Fading (2)", "## Top breaking fields"] {
            #expect(text.contains(heading), "missing \(heading)")
        }
        #expect(text.contains("back in 5.3.0"))
        #expect(text.contains("10 → 40 failures"))
        #expect(text.contains("≥ 20 failures, ≥ 10 more and ≥ 2×"))
        let slack = DigestMarkdownRenderer.render(digest, style: .slack)
        #expect(!slack.contains("#"))
        #expect(slack.contains("*New (1)*"))
    }

    @Test("HTML is one self-contained page with a chart per group and escaped text")
    func html() {
        var specs = Self.specs
        specs[1].path = "$.results[*]['<script>']"
        let digest = DigestBuilder.build(Self.input(specs), generatedAt: Self.now)
        let html = DigestHTMLRenderer.render(digest)
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("name=\"viewport\""))
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;"))
        #expect(!html.contains("http://") || !html.contains("src=\""))
        let cards = html.components(separatedBy: "class=\"group ").count - 1
        let charts = html.components(separatedBy: "<svg").count - 1
        #expect(cards > 0 && charts == cards)
    }

    @Test("an empty chart draws only its baseline; bars scale to the peak")
    func chart() {
        #expect(!DigestHTMLRenderer.chart(Array(repeating: 0, count: 24), label: "x").contains("<title>0</title>"))
        let svg = DigestHTMLRenderer.chart([0, 5, 10], label: "x")
        #expect(svg.contains("height=\"31\"><title>10</title>"))
        #expect(svg.contains("<title>5</title>"))
    }

    @Test("a quiet digest says nothing broke only when there was data; before the first report it says there is none")
    func quiet() {
        var digest = DigestBuilder.build(Self.input([]), generatedAt: Self.now)
        #expect(digest.isQuiet)
        digest.dataSince = digest.previousPeriod.since.addingTimeInterval(-86_400)
        #expect(DigestMarkdownRenderer.render(digest).contains("Nothing broke in either period."))
        #expect(DigestHTMLRenderer.render(digest).contains("Nothing broke in either period."))

        digest.dataSince = nil
        let empty = DigestMarkdownRenderer.render(digest)
        #expect(!empty.contains("Nothing broke"))
        #expect(empty.contains("No data yet: no report is stored"))

        let begins = digest.period.until.addingTimeInterval(3_600)
        digest.dataSince = begins
        #expect(
            DigestMarkdownRenderer.render(digest).contains(
                "No data for these periods yet: reports begin at \(RFC3339.string(from: begins))."))
        #expect(DigestHTMLRenderer.render(digest).contains("No data for these periods yet"))
    }

    @Test("counts read 1 field, 2 fields; a digest whose data begins inside its periods says so")
    func pluralsAndPartialData() {
        #expect(Plural.count(1, "field") == "1 field")
        #expect(Plural.count(2, "field") == "2 fields")
        #expect(Plural.count(0, "batch", plural: "batches") == "0 batches")
        var digest = DigestBuilder.build(
            Self.input([Spec(id: "aaaa000000000001", current: 1, previous: 0)]), generatedAt: Self.now)
        digest.dataSince = digest.period.since.addingTimeInterval(600)
        let text = DigestMarkdownRenderer.render(digest)
        #expect(text.contains("**1** failure (") && text.contains("in 1 field on 2 endpoints, 7 installs."), "\(text)")
        #expect(text.contains("inside the compared periods"))
        let html = DigestHTMLRenderer.render(digest)
        #expect(html.contains("<b>1</b><span>field</span>") && html.contains("<b>2</b><span>endpoints</span>"))
    }
}

@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// The periodic digest (docs/cli.md#digest): what started breaking, what came back, what grows and what fades.
///
/// The `json` format is this value encoded (see `schemas/digest.v1.schema.json`); the Markdown and
/// HTML formats render it. Group lists are capped per section (``DigestLimits``); ``totals`` is not.
public struct Digest: Codable, Sendable, Hashable {
    /// The version of this document's shape; 1.
    public var version: Int
    /// The app the digest is restricted to, or `nil` (written `null`) for every app.
    @NullEncoded public var app: String?
    /// The environment the digest is restricted to (docs/wire-format.md#environments), or `nil` (written `null`)
    /// for every environment.
    @NullEncoded public var environment: String?
    /// When the digest was computed.
    @RFC3339Coded public var generatedAt: Date
    /// The period summarized.
    public var period: DigestPeriod
    /// The period of the same length before it, the baseline.
    public var previousPeriod: DigestPeriod
    /// The rule that decided ``growing`` and ``fading``.
    public var growthRule: GrowthRule
    /// Exact totals over every group.
    public var totals: DigestTotals
    /// Groups first seen in the period, by count descending.
    public var new: [DigestGroup]
    /// Groups seen again in the period after they were resolved, by count descending.
    public var regressed: [DigestGroup]
    /// Older groups the growth rule calls growing, by increase descending.
    public var growing: [DigestGroup]
    /// Older groups the growth rule calls fading, by decrease descending.
    public var fading: [DigestGroup]
    /// Endpoints by count descending, each with its top breaking fields.
    public var endpoints: [DigestEndpoint]
    /// Contract drift of the period's fields; `nil`, and left out of the JSON, when no app has a contract.
    public var drift: DigestDrift?
    /// When the first report stored for the digest's app and environment occurred; `nil` (written `null`) when
    /// none is stored. Periods before it have no data, which the renderers say rather than "nothing broke".
    @RFC3339CodedOrNull public var dataSince: Date?

    /// Creates a digest.
    public init(
        app: String?, environment: String? = nil, generatedAt: Date, period: DigestPeriod, growthRule: GrowthRule,
        totals: DigestTotals, new: [DigestGroup], regressed: [DigestGroup], growing: [DigestGroup],
        fading: [DigestGroup], endpoints: [DigestEndpoint]
    ) {
        self.version = 1
        self.app = app
        self.environment = environment
        self.generatedAt = generatedAt
        self.period = period
        self.previousPeriod = period.previous
        self.growthRule = growthRule
        self.totals = totals
        self.new = new
        self.regressed = regressed
        self.growing = growing
        self.fading = fading
        self.endpoints = endpoints
    }

    enum CodingKeys: String, CodingKey {
        case version, app, environment, period, totals, new, regressed, growing, fading, endpoints, drift
        case generatedAt = "generated_at"
        case previousPeriod = "previous_period"
        case growthRule = "growth_rule"
        case dataSince = "data_since"
    }
}

extension Digest {
    /// What headings add after the app for a digest of one environment (`, staging environment`); empty otherwise.
    public var environmentScope: String { environment.map { ", \($0) environment" } ?? "" }

    /// What the digest says instead of its lists when both periods have no failures: that nothing broke, or that
    /// there is no data yet and when it begins.
    public var quietSentence: String {
        guard let dataSince else {
            return "No data yet: no report is stored\(app.map { " for \($0)" } ?? "")\(environmentScope); "
                + "the digest fills in once an app sends its first batch."
        }
        guard dataSince < period.until else {
            return "No data for these periods yet: reports begin at \(RFC3339.string(from: dataSince))."
        }
        return "Nothing broke in either period."
    }

    /// What the digest adds when data begins inside the compared periods: changes against the period before are
    /// not yet meaningful. `nil` otherwise.
    public var partialDataNote: String? {
        guard let dataSince, dataSince > previousPeriod.since, dataSince < period.until else { return nil }
        return "Reports begin at \(RFC3339.string(from: dataSince)), inside the compared periods: "
            + "changes against the period before are not yet meaningful."
    }

    /// Whether nothing broke in either period.
    public var isQuiet: Bool { totals.count == 0 && totals.previousCount == 0 }
}

/// Exact numbers over every group of the app(s), for the period and the one before.
public struct DigestTotals: Codable, Sendable, Hashable {
    /// Failures in the period.
    public var count: Int
    /// Failures in the previous period.
    public var previousCount: Int
    /// Groups with failures in the period.
    public var groups: Int
    /// Groups with failures in the previous period.
    public var previousGroups: Int
    /// Distinct installs with failures in the period.
    public var installs: Int
    /// Endpoints with failures in the period.
    public var endpoints: Int
    /// How many groups are new, regressed, growing and fading (before the per-section cap).
    public var new: Int
    /// See ``new``.
    public var regressed: Int
    /// See ``new``.
    public var growing: Int
    /// See ``new``.
    public var fading: Int

    enum CodingKeys: String, CodingKey {
        case count, groups, installs, endpoints, new, regressed, growing, fading
        case previousCount = "previous_count"
        case previousGroups = "previous_groups"
    }
}

/// One endpoint and its top breaking fields in the period.
public struct DigestEndpoint: Codable, Sendable, Hashable {
    /// App id.
    public var app: String
    /// Normalized endpoint.
    public var endpoint: String
    /// Failures of all its groups in the period.
    public var count: Int
    /// Groups with failures in the period.
    public var groups: Int
    /// The top groups by count.
    public var fields: [DigestGroup]
}

/// One group's numbers in a digest; the fields of docs/api.md#summary-fields plus the comparison and the hourly series.
public struct DigestGroup: Codable, Sendable, Hashable {
    /// Stable group id.
    public var group: String
    /// App id.
    public var app: String
    /// Normalized endpoint.
    public var endpoint: String
    /// Rendered JSONPath.
    public var path: String
    /// Failure kind.
    public var kind: ReportKind
    /// Most frequent expected type in the period.
    @NullEncoded public var expected: String?
    /// Failures in the period.
    public var count: Int
    /// Failures in the previous period.
    public var previousCount: Int
    /// Distinct installs in the period.
    public var installs: Int
    /// `count` ÷ decodes of the endpoint in the period; `nil` when no decodes were reported.
    @NullEncoded public var rate: Double?
    /// Failures per app version in the period.
    public var versions: [String: Int]
    /// Lifecycle status relative to the period (docs/api.md#status).
    public var status: GroupStatus
    /// The growth rule's verdict.
    public var trend: DigestTrend
    /// When the group was first seen, ever.
    @RFC3339Coded public var firstSeen: Date
    /// When the group was last seen, ever.
    @RFC3339Coded public var lastSeen: Date
    /// For a regressed group, the app version whose report brought it back.
    @NullEncoded public var regressedVersion: String?
    /// Failures per hour of the period, oldest first (one entry per hour).
    public var hourly: [Int]

    /// Versions by count descending, then name, for display.
    public var versionsByCount: [(version: String, count: Int)] {
        versions.sorted { $0.value == $1.value ? $0.key < $1.key : $0.value > $1.value }
            .map { (version: $0.key, count: $0.value) }
    }

    enum CodingKeys: String, CodingKey {
        case group, app, endpoint, path, kind, expected, count, installs, rate, versions, status, trend, hourly
        case previousCount = "previous_count"
        case firstSeen = "first_seen"
        case lastSeen = "last_seen"
        case regressedVersion = "regressed_version"
    }
}

/// How many entries each list of a digest keeps; totals always count everything.
public struct DigestLimits: Sendable, Hashable {
    /// Most groups in each of new, regressed, growing and fading.
    public var perSection: Int
    /// Most endpoints listed.
    public var endpoints: Int
    /// Most fields listed per endpoint.
    public var fieldsPerEndpoint: Int

    /// Creates limits; the defaults keep a daily digest readable on a phone.
    public init(perSection: Int = 20, endpoints: Int = 10, fieldsPerEndpoint: Int = 5) {
        self.perSection = perSection
        self.endpoints = endpoints
        self.fieldsPerEndpoint = fieldsPerEndpoint
    }
}

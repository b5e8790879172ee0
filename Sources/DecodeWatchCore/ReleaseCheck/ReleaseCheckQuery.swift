@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// What a release check judges (docs/api.md#release-check): `GET /v1/check` and `decodewatch check`.
///
/// Thresholds are decimals, so that a rate exactly at `maxRate`, or exactly `maxRatio` times the baseline's, is
/// judged as written rather than as binary floating point rounds it.
public struct ReleaseCheckQuery: Sendable, Hashable {
    /// The app id.
    public var app: String
    /// The version under judgement.
    public var version: String
    /// The version it is compared with, if any.
    public var baseline: String?
    /// Only this environment's reports and decodes, for both versions; `nil` counts every environment.
    public var environment: String?
    /// Start of the window, inclusive.
    public var since: Date
    /// End of the window, exclusive.
    public var until: Date
    /// A field fails from this rate (a fraction: 0.01 is 1 %).
    public var maxRate: Decimal
    /// With a baseline, a field fails only from this many times its baseline rate.
    public var maxRatio: Decimal
    /// Fewer decodes of the version than this in the window make the verdict `insufficient`.
    public var minDecodes: Int

    /// The window when none is given: the last 24 hours.
    public static let defaultSince = "24h"
    /// The rate a field fails from when none is given: 1 %.
    public static let defaultMaxRate = Decimal(string: "0.01")!
    /// How many times its baseline rate a field must reach to fail when none is given.
    public static let defaultMaxRatio = Decimal(3)
    /// The decodes a judgement needs when none is given.
    public static let defaultMinDecodes = 1000

    /// Creates a query.
    public init(
        app: String, version: String, baseline: String? = nil, environment: String? = nil, since: Date, until: Date,
        maxRate: Decimal = ReleaseCheckQuery.defaultMaxRate, maxRatio: Decimal = ReleaseCheckQuery.defaultMaxRatio,
        minDecodes: Int = ReleaseCheckQuery.defaultMinDecodes
    ) {
        self.app = app
        self.version = version
        self.baseline = baseline
        self.environment = environment
        self.since = since
        self.until = until
        self.maxRate = maxRate
        self.maxRatio = maxRatio
        self.minDecodes = minDecodes
    }

    /// How a caller names the parameters, for the messages: `max_rate` in a query string, `--max-rate` on the
    /// command line.
    public enum Spelling: Sendable {
        /// Query-string names, as `GET /v1/check` takes them.
        case query
        /// Command-line flags, as `decodewatch check` takes them.
        case flags

        /// The name of a parameter given by its query-string name.
        public func name(_ parameter: String) -> String {
            switch self {
            case .query: parameter
            case .flags: "--" + parameter.replacingOccurrences(of: "_", with: "-")
            }
        }
    }

    /// Builds a query from the textual parameters shared by the HTTP API and the CLI.
    /// - Parameters:
    ///   - environment: an environment name (``EnvironmentName``), or `nil` for every environment.
    ///   - since: RFC 3339 time or a duration back from `now`; default ``defaultSince``. The window ends `now`.
    ///   - maxRate: a percentage (`1%`, `0.5%`) or a fraction below 1 (`0.01`).
    ///   - maxRatio: a positive number (`3`, `1.5`).
    ///   - minDecodes: a whole number of at least 1.
    ///   - spelling: how the caller names the parameters, for the messages.
    /// - Throws: ``QueryError`` naming the parameter that is missing or wrong.
    public static func parse(
        app: String?, version: String?, baseline: String?, environment: String? = nil, since: String?,
        maxRate: String?, maxRatio: String?, minDecodes: String?, now: Date, spelling: Spelling
    ) throws(QueryError) -> ReleaseCheckQuery {
        let name = spelling.name
        guard let app, !app.isEmpty else { throw QueryError("\(name("app")) is required: the app id to check.") }
        guard let version, !version.isEmpty else {
            throw QueryError("\(name("version")) is required: the app version to check, as batches send it.")
        }
        if let baseline {
            guard !baseline.isEmpty else { throw QueryError("\(name("baseline")) must not be empty.") }
            guard baseline != version else {
                throw QueryError("\(name("baseline")) '\(baseline)' must differ from \(name("version")).")
            }
        }
        let window = try FieldsQuery.window(
            since: since ?? defaultSince, until: nil, now: now, names: (name("since"), "now"))
        var query = ReleaseCheckQuery(
            app: app, version: version, baseline: baseline,
            environment: try EnvironmentName.filter(environment, field: name("environment")), since: window.since,
            until: now)
        if let maxRate { query.maxRate = try Self.rate(maxRate, name: name("max_rate")) }
        if let maxRatio {
            guard let ratio = Self.decimal(maxRatio), ratio > 0 else {
                throw QueryError("\(name("max_ratio")) '\(maxRatio)' must be a positive number such as 3 or 1.5.")
            }
            query.maxRatio = ratio
        }
        if let minDecodes {
            guard let count = Int(minDecodes), count >= 1 else {
                throw QueryError("\(name("min_decodes")) '\(minDecodes)' must be a whole number of at least 1.")
            }
            query.minDecodes = count
        }
        return query
    }

    /// Reads a rate threshold: a percentage in (0 %, 100 %], or a fraction in (0, 1).
    private static func rate(_ text: String, name: String) throws(QueryError) -> Decimal {
        let problem = QueryError(
            "\(name) '\(text)' must be a percentage such as 1% or 0.5% (above 0, at most 100%), or a fraction "
                + "below 1 such as 0.01.")
        if text.hasSuffix("%") {
            guard let percent = decimal(String(text.dropLast())), percent > 0, percent <= 100 else { throw problem }
            return percent / 100
        }
        guard let fraction = decimal(text), fraction > 0, fraction < 1 else { throw problem }
        return fraction
    }

    /// A plain decimal number: digits, optionally a point and more digits; no sign, exponent or spaces.
    private static func decimal(_ text: String) -> Decimal? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) })
        else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}

extension Character {
    /// Whether it is one of `0`…`9`.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// One alert: a rule fired for one group, or for many at once (then it summarises them).
///
/// Its JSON form is the document of `schemas/alert.v1.schema.json` (``AlertRenderer/json(_:)``); the Slack
/// form is text (``AlertRenderer/slackText(_:)``). One evaluation sends at most one alert per rule, so a
/// deploy that breaks 500 fields sends one alert listing the top ones and counting all.
public struct Alert: Sendable, Hashable {
    /// The rule that fired.
    public var rule: AlertRule
    /// When it fired.
    public var firedAt: Date
    /// Start of the window evaluated.
    public var since: Date
    /// End of the window evaluated.
    public var until: Date
    /// The groups listed, most failures first: every group, up to ``listed``.
    public var fields: [AlertField]
    /// How many groups fired the rule in this evaluation, listed or not.
    public var total: Int
    /// Whether this is a sample sent by `decodewatch alerts test`.
    public var isTest: Bool

    /// Most groups one alert lists; the rest are counted in ``total``.
    public static let listed = 10

    /// Creates an alert.
    public init(
        rule: AlertRule, firedAt: Date, since: Date, until: Date, fields: [AlertField], total: Int,
        isTest: Bool = false
    ) {
        self.rule = rule
        self.firedAt = firedAt
        self.since = since
        self.until = until
        self.fields = fields
        self.total = total
        self.isTest = isTest
    }

    /// Whether it summarises several groups.
    public var isSummary: Bool { total > 1 }
}

/// One group in an alert: its key and its numbers in the window.
public struct AlertField: Sendable, Hashable {
    /// The group's numbers in the window (docs/api.md#summary-fields).
    public var summary: FieldSummary
    /// The group's dashboard page, when a public URL is configured.
    public var url: URL?

    /// Creates an entry.
    public init(summary: FieldSummary, url: URL?) {
        self.summary = summary
        self.url = url
    }

    /// The group's page under a public URL: `<public>/groups/<id>`.
    public static func page(of group: String, under publicURL: URL?) -> URL? {
        publicURL?.appendingPathComponent("groups").appendingPathComponent(group)
    }
}

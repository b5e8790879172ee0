import Foundation

/// An alert rule as `decodewatch alerts list` and `GET /v1/alerts` show it (docs/api.md#alert-rules): the webhook
/// without its path and query, where incoming-webhook URLs keep their secret.
public struct AlertRuleListing: Codable, Sendable, Hashable {
    /// The rule id.
    public var id: String
    /// The rule's unique name.
    public var name: String
    /// Only this app, or `null` for all.
    @NullEncoded public var app: String?
    /// Only this endpoint, or `null`.
    @NullEncoded public var endpoint: String?
    /// Only this kind, or `null`.
    @NullEncoded public var kind: String?
    /// Only this environment's reports count, or `null` for every environment's.
    @NullEncoded public var environment: String?
    /// The condition as `--when` spells it (`new`, `rate-above:5`, …).
    public var when: String
    /// The window as `--over` spells it.
    public var over: String
    /// The webhook's scheme and host only.
    public var webhook: String
    /// `slack` or `json`.
    public var format: String
    /// When the rule was added.
    @RFC3339Coded public var createdAt: Date

    /// The listing of a stored rule.
    public init(_ rule: AlertRule) {
        id = rule.id
        name = rule.name
        app = rule.app
        endpoint = rule.endpoint
        kind = rule.kind?.rawValue
        environment = rule.environment
        when = rule.condition.description
        over = rule.windowText
        webhook = AlertText.redacted(rule.webhook.absoluteString)
        format = rule.format.rawValue
        createdAt = rule.createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name, app, endpoint, kind, environment, when, over, webhook, format
        case createdAt = "created_at"
    }
}

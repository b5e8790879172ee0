@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// A stored alert rule: which groups it watches, when it fires, over which window, and where it posts.
public struct AlertRule: Sendable, Hashable {
    /// How an alert is written to the webhook.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// Slack-compatible `{"text": …}`, every app-controlled string escaped.
        case slack
        /// The document of `schemas/alert.v1.schema.json`.
        case json
    }

    /// The stable id, e.g. `rule_3f2a9c0b1d4e`.
    public var id: String
    /// A name people recognise in the alert.
    public var name: String
    /// Only this app, or every app.
    public var app: String?
    /// Only this normalized endpoint, or every endpoint.
    public var endpoint: String?
    /// Only this kind, or every kind.
    public var kind: ReportKind?
    /// Only the reports of this environment count (docs/wire-format.md#environments), or those of every environment.
    public var environment: String?
    /// When it fires.
    public var condition: AlertCondition
    /// The window the condition is evaluated over, ending at the evaluation, in seconds (whole minutes).
    public var window: TimeInterval
    /// Where alerts are posted. A secret: never logged or listed whole (``AlertText/redacted(_:)``).
    public var webhook: URL
    /// How alerts are written.
    public var format: Format
    /// When the rule was added.
    public var createdAt: Date

    /// Creates a rule; ``AlertRuleDraft/validate()`` checks what people type before one is made.
    public init(
        id: String, name: String, app: String?, endpoint: String?, kind: ReportKind?, condition: AlertCondition,
        window: TimeInterval, webhook: URL, format: Format, createdAt: Date, environment: String? = nil
    ) {
        self.environment = environment
        self.id = id
        self.name = name
        self.app = app
        self.endpoint = endpoint
        self.kind = kind
        self.condition = condition
        self.window = window
        self.webhook = webhook
        self.format = format
        self.createdAt = createdAt
    }

    /// A new random id.
    public static func makeID() -> String {
        "rule_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
    }

    /// Whether a group is in the rule's scope (app, endpoint and kind filters).
    public func watches(app: String, endpoint: String, kind: ReportKind) -> Bool {
        (self.app == nil || self.app == app) && (self.endpoint == nil || self.endpoint == endpoint)
            && (self.kind == nil || self.kind == kind)
    }

    /// The window as written: `10m`, `2h`, `1d`.
    public var windowText: String { AlertText.duration(window) }
}

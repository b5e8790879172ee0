@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// A rule as typed to `decodewatch alerts add`, checked before anything is stored.
public struct AlertRuleDraft: Sendable, Hashable {
    /// `--name`.
    public var name: String
    /// `--app`.
    public var app: String?
    /// `--endpoint`, normalized when checked.
    public var endpoint: String?
    /// `--kind`.
    public var kind: String?
    /// `--environment`.
    public var environment: String?
    /// `--when`.
    public var when: String
    /// `--over`.
    public var over: String
    /// `--webhook`.
    public var webhook: String
    /// `--format`.
    public var format: String

    /// The shortest window: the rollups are per minute, so a shorter window could not be exact.
    public static let minimumWindow: TimeInterval = 60
    /// The longest window: per-minute counts are kept for ``Minute/kept``.
    public static let maximumWindow: TimeInterval = Minute.kept

    /// Creates a draft.
    public init(
        name: String, app: String? = nil, endpoint: String? = nil, kind: String? = nil, when: String,
        over: String = "10m", webhook: String, format: String = "slack", environment: String? = nil
    ) {
        self.environment = environment
        self.name = name
        self.app = app
        self.endpoint = endpoint
        self.kind = kind
        self.when = when
        self.over = over
        self.webhook = webhook
        self.format = format
    }

    /// Checks every field and makes the rule.
    /// - Parameters:
    ///   - id: the new rule's id.
    ///   - now: the time recorded as its creation.
    ///   - normalizer: normalizes `--endpoint` as ingest does, so `GET /v2/posts/42` watches `GET /v2/posts/{id}`.
    /// - Throws: ``QueryError`` naming the first field that cannot work, in one sentence.
    public func validate(
        id: String = AlertRule.makeID(), now: Date = Date(), normalizer: EndpointNormalizer = EndpointNormalizer()
    ) throws(QueryError) -> AlertRule {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 100 else {
            throw QueryError("--name must be 1 to 100 characters, e.g. --name 'posts break'.")
        }
        if let app, app.isEmpty || app.count > 200 { throw QueryError("--app must be 1 to 200 characters.") }
        let condition = try AlertCondition(parsing: when)
        guard let window = TimeReference.duration(over), window.truncatingRemainder(dividingBy: 60) == 0 else {
            throw QueryError("--over '\(over)' must be whole minutes such as 5m, 1h or 1d (a minute at least).")
        }
        guard window >= Self.minimumWindow else {
            throw QueryError("--over '\(over)' is shorter than a minute, the resolution of the counts; use 1m or more.")
        }
        guard window <= Self.maximumWindow else {
            throw QueryError("--over '\(over)' is longer than 7d, how long per-minute counts are kept; use 7d or less.")
        }
        let url = try Self.webhookURL(webhook)
        guard let format = AlertRule.Format(rawValue: format) else {
            throw QueryError("--format '\(format)' is unknown; use slack or json.")
        }
        let kindValue = try ReportKind.filter(kind, field: "--kind")
        let endpointValue = try normalizer.filter(endpoint, field: "--endpoint")
        return AlertRule(
            id: id, name: trimmed, app: app, endpoint: endpointValue, kind: kindValue, condition: condition,
            window: window, webhook: url, format: format, createdAt: now,
            environment: try EnvironmentName.filter(environment, field: "--environment"))
    }

    /// An absolute http or https URL with a host.
    /// - Throws: ``QueryError`` when the URL cannot receive a POST.
    public static func webhookURL(_ text: String) throws(QueryError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            // Echoed as typed, so the mistake shows: the operator's own input, on their own terminal.
            throw QueryError(
                "--webhook '\(text)' is not an http(s) URL: give https://hooks.slack.com/services/… or another "
                    + "http(s) address.")
        }
        return url
    }
}

@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Writes an alert as Slack text or as the JSON document of `schemas/alert.v1.schema.json`.
public enum AlertRenderer {
    /// The body posted for an alert in a rule's format.
    public static func body(_ alert: Alert) -> Data {
        switch alert.rule.format {
        case .slack: return slackBody(alert)
        case .json: return json(alert)
        }
    }

    /// Slack's `{"text": …}`.
    public static func slackBody(_ alert: Alert) -> Data {
        (try? JSONSerialization.data(
            withJSONObject: ["text": slackText(alert)], options: [.withoutEscapingSlashes, .sortedKeys])) ?? Data()
    }

    /// Slack mrkdwn text. Every app-controlled string (app, endpoint, path, expected type, versions) and
    /// the rule's name are escaped (``SlackText/escaped(_:)``), so none can mention `@channel` or forge a link;
    /// only the group links the collector writes itself are Slack links.
    public static func slackText(_ alert: Alert) -> String {
        let e = SlackText.escaped
        let prefix = alert.isTest ? "[test] " : ""
        let what =
            alert.isSummary
            ? Plural.count(alert.total, "breaking field") : "\(alert.fields.first?.summary.status.rawValue ?? "") breaking field"
        var lines = [
            "\(prefix):rotating_light: *DecodeWatch alert \u{201C}\(e(alert.rule.name))\u{201D}: \(what)* "
                + "(\(e(alert.rule.condition.description)) over the last \(alert.rule.windowText)"
                + (alert.rule.environment.map { " in \($0)" } ?? "") + ")"
        ]
        for field in alert.fields {
            let s = field.summary
            var line = "• `\(e(s.endpoint))` `\(e(s.path))` \(s.kind.rawValue)"
            if let expected = s.expected { line += " (expected \(e(expected)))" }
            line += " is \(s.status.rawValue): \(Plural.count(s.count, "failure"))"
            line += s.rate.map { ", \(AlertText.percent($0)) of decodes" } ?? ", rate unknown (no decode counts)"
            line += ", \(Plural.count(s.installs, "install")) · app \(e(s.app))"
            if !s.versions.isEmpty { line += " · versions \(e(versions(s.versions)))" }
            line += " · first seen \(RFC3339.string(from: s.firstSeen))"
            if let url = field.url { line += " · <\(url.absoluteString)|open>" }
            lines.append(line)
        }
        if alert.total > alert.fields.count {
            lines.append("…and \(alert.total - alert.fields.count) more (\(alert.total) in total).")
        }
        return lines.joined(separator: "\n")
    }

    /// Versions by count, most first: `5.2.0 (40), 5.1.0 (2)`.
    static func versions(_ counts: [String: Int]) -> String {
        counts.sorted { $0.value == $1.value ? $0.key < $1.key : $0.value > $1.value }
            .prefix(5).map { "\($0.key.isEmpty ? "unknown" : $0.key) (\($0.value))" }.joined(separator: ", ")
    }

    /// The JSON document of `schemas/alert.v1.schema.json`.
    public static func json(_ alert: Alert) -> Data {
        let rule = alert.rule
        let fields: [[String: Any]] = alert.fields.map { field in
            let s = field.summary
            return [
                "group": s.group, "app": s.app, "endpoint": s.endpoint, "path": s.path, "kind": s.kind.rawValue,
                "expected": AlertRenderer.nullable(s.expected), "status": s.status.rawValue, "count": s.count,
                "installs": s.installs, "rate": AlertRenderer.nullable(s.rate), "versions": s.versions,
                "first_seen": RFC3339.string(from: s.firstSeen), "last_seen": RFC3339.string(from: s.lastSeen),
                "url": AlertRenderer.nullable(field.url?.absoluteString),
            ]
        }
        let document: [String: Any] = [
            "version": 1,
            "test": alert.isTest,
            "rule": [
                "id": rule.id, "name": rule.name, "when": rule.condition.description, "over": rule.windowText,
                "app": AlertRenderer.nullable(rule.app), "endpoint": AlertRenderer.nullable(rule.endpoint),
                "kind": AlertRenderer.nullable(rule.kind?.rawValue),
                "environment": AlertRenderer.nullable(rule.environment),
            ],
            "fired_at": RFC3339.string(from: alert.firedAt),
            "since": RFC3339.string(from: alert.since),
            "until": RFC3339.string(from: alert.until),
            "total": alert.total,
            "fields": fields,
        ]
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
    }

    /// A value for `JSONSerialization`, `NSNull` for `nil`.
    public static func nullable(_ value: Any?) -> Any { value ?? NSNull() }
}

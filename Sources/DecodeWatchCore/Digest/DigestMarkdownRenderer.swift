@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Renders a digest as Markdown, or as Slack's `mrkdwn` for webhooks.
///
/// Lists rather than tables: they read well in a terminal, on GitHub, in Slack and on a phone.
public enum DigestMarkdownRenderer {
    /// The dialect written.
    public enum Style: Sendable {
        /// CommonMark: `#` headings and `**bold**`.
        case markdown
        /// Slack `mrkdwn`: `*bold*` lines instead of headings.
        case slack
    }

    /// Renders a digest.
    /// - Parameters:
    ///   - digest: the digest.
    ///   - style: CommonMark (default) or Slack.
    /// - Returns: the text, ending with a newline.
    public static func render(_ digest: Digest, style: Style = .markdown) -> String {
        var out = Writer(style: style)
        let scope = (digest.app.map { " for \($0)" } ?? "") + digest.environmentScope
        out.heading(1, "DecodeWatch digest\(scope)")
        out.line(
            "\(DigestText.window(digest.period)), compared with the \(DigestText.duration(digest.period.length)) before."
        )
        out.blank()
        let totals = digest.totals
        out.line(
            "\(out.bold(String(totals.count))) \(Plural.noun("failure", totals.count)) "
                + "(\(DigestText.change(totals.count, from: totals.previousCount))) "
                + "in \(Plural.count(totals.groups, "field")) on \(Plural.count(totals.endpoints, "endpoint")), "
                + "\(Plural.count(totals.installs, "install")). "
                + "New: \(totals.new) · regressed: \(totals.regressed) · growing: \(totals.growing) · fading: \(totals.fading)."
        )
        if digest.isQuiet {
            out.blank()
            out.line(digest.quietSentence)
            return out.text
        }
        if let note = digest.partialDataNote {
            out.blank()
            out.line(note)
        }
        section(&out, "New", digest.new, total: totals.new) { group in
            "\(Plural.count(group.count, "failure")), \(Plural.count(group.installs, "install")), first seen \(RFC3339.string(from: group.firstSeen))"
        }
        section(&out, "Regressed", digest.regressed, total: totals.regressed) { group in
            let version = group.regressedVersion.map { "back in \($0)" } ?? "back"
            return "\(version): \(Plural.count(group.count, "failure")), \(Plural.count(group.installs, "install"))"
        }
        section(&out, "Growing", digest.growing, total: totals.growing) { group in
            "\(group.previousCount) → \(Plural.count(group.count, "failure")), \(Plural.count(group.installs, "install"))"
        }
        section(&out, "Fading", digest.fading, total: totals.fading) { group in
            "\(group.previousCount) → \(Plural.count(group.count, "failure"))"
        }
        if !digest.endpoints.isEmpty {
            out.blank()
            out.heading(2, "Top breaking fields per endpoint")
            for endpoint in digest.endpoints {
                out.blank()
                let app = digest.app == nil ? " (\(endpoint.app))" : ""
                out.line(
                    "\(out.code(endpoint.endpoint))\(app): \(Plural.count(endpoint.count, "failure")) in "
                        + Plural.count(endpoint.groups, "field"))
                for field in endpoint.fields {
                    var details = [
                        Plural.count(field.count, "failure"), Plural.count(field.installs, "install"),
                        "rate \(DigestText.rate(field.rate))",
                    ]
                    let versions = DigestText.versions(field)
                    if !versions.isEmpty { details.append("versions \(versions)") }
                    details.append(field.status.rawValue)
                    out.line("- \(out.code(field.path)) \(field.kind.rawValue): " + details.joined(separator: ", "))
                }
            }
        }
        if let drift = digest.drift {
            out.blank()
            out.heading(2, drift.headline.prefix(1).uppercased() + drift.headline.dropFirst())
            out.line("Judged against the apps' OpenAPI contracts; also \(drift.others).")
            for entry in drift.backend {
                out.line(
                    "- \(out.code(entry.endpoint)) \(out.code(entry.path)) \(Plural.count(entry.count, "failure")): \(entry.reason)")
            }
        }
        out.blank()
        let rule = digest.growthRule
        out.line(
            "_Growing: ≥ \(rule.minimumCount) failures, ≥ \(rule.minimumIncrease) more and ≥ \(rule.factor)× the previous period. "
                + "Fading: previous ≥ \(rule.minimumPrevious) and now ≤ 1/\(rule.factor) of it._")
        return out.text
    }

    private static func section(
        _ out: inout Writer, _ title: String, _ groups: [DigestGroup], total: Int, _ detail: (DigestGroup) -> String
    ) {
        guard !groups.isEmpty else { return }
        out.blank()
        out.heading(2, "\(title) (\(total))")
        for group in groups {
            out.line("- \(out.code(group.endpoint)) \(out.code(group.path)) \(group.kind.rawValue) — \(detail(group))")
        }
        if total > groups.count { out.line("- … and \(total - groups.count) more") }
    }

    private struct Writer {
        let style: Style
        var text = ""

        mutating func line(_ line: String) { text += line + "\n" }
        mutating func blank() { if !text.isEmpty && !text.hasSuffix("\n\n") { text += "\n" } }

        mutating func heading(_ level: Int, _ title: String) {
            switch style {
            case .markdown: line(String(repeating: "#", count: level) + " " + title)
            case .slack: line("*\(title)*")
            }
        }

        func bold(_ text: String) -> String { style == .markdown ? "**\(text)**" : "*\(text)*" }

        // Backticks inside a path would end the code span; a path cannot hold a newline.
        func code(_ text: String) -> String { "`" + text.replacingOccurrences(of: "`", with: "'") + "`" }
    }
}

/// Wording shared by the renderers.
enum DigestText {
    static func window(_ period: DigestPeriod) -> String {
        "\(RFC3339.string(from: period.since)) → \(RFC3339.string(from: period.until))"
    }

    static func duration(_ seconds: TimeInterval) -> String {
        let hours = Int(seconds / 3600)
        if hours % 168 == 0 { return hours == 168 ? "week" : "\(hours / 168) weeks" }
        if hours % 24 == 0 { return hours == 24 ? "24 hours" : "\(hours / 24) days" }
        return hours == 1 ? "hour" : "\(hours) hours"
    }

    static func change(_ current: Int, from previous: Int) -> String {
        if previous == 0 { return current == 0 ? "no change" : "none before" }
        let percent = Int((Double(current - previous) / Double(previous) * 100).rounded())
        return percent >= 0 ? "+\(percent)% on \(previous)" : "\(percent)% on \(previous)"
    }

    static func rate(_ rate: Double?) -> String {
        guard let rate else { return "n/a" }
        return String(format: rate < 0.001 && rate > 0 ? "%.3f%%" : "%.1f%%", rate * 100)
    }

    static func versions(_ group: DigestGroup, limit: Int = 4) -> String {
        let all = group.versionsByCount
        var text = all.prefix(limit).map { "\($0.version) (\($0.count))" }.joined(separator: ", ")
        if all.count > limit { text += ", +\(all.count - limit)" }
        return text
    }
}

@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Renders a digest as one self-contained HTML page: inline CSS, an inline SVG bar chart of hourly
/// failures per group, no scripts, no external requests, readable on a phone (one column of cards).
public enum DigestHTMLRenderer {
    /// Renders a digest.
    /// - Parameter digest: the digest.
    /// - Returns: a complete HTML5 document.
    public static func render(_ digest: Digest) -> String {
        // Environment names are letters, digits, '.', '_' and '-': nothing to escape.
        let scope = (digest.app.map { " for \(escape($0))" } ?? "") + digest.environmentScope
        let totals = digest.totals
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>DecodeWatch digest\(scope) · \(escape(DigestText.window(digest.period)))</title>
            <style>\(style)</style>
            </head>
            <body>
            <main>
            <h1>DecodeWatch digest\(scope)</h1>
            <p class="period">\(escape(DigestText.window(digest.period))), compared with the \
            \(DigestText.duration(digest.period.length)) before.</p>
            <section class="totals" id="totals">
            \(stat("failure", totals.count, note: DigestText.change(totals.count, from: totals.previousCount)))
            \(stat("field", totals.groups, note: "\(totals.previousGroups) before"))
            \(stat("endpoint", totals.endpoints, note: nil))
            \(stat("install", totals.installs, note: nil))
            </section>
            <p class="counts">New \(totals.new) · regressed \(totals.regressed) · growing \(totals.growing) · \
            fading \(totals.fading)</p>

            """
        if digest.isQuiet { html += "<p class=\"quiet\">\(escape(digest.quietSentence))</p>\n" }
        if let note = digest.partialDataNote { html += "<p class=\"note\">\(escape(note))</p>\n" }
        html += section("new", "New", digest.new, total: totals.new) { group in
            "\(Plural.count(group.count, "failure")) · \(Plural.count(group.installs, "install")) · first seen \(RFC3339.string(from: group.firstSeen))"
        }
        html += section("regressed", "Regressed", digest.regressed, total: totals.regressed) { group in
            (group.regressedVersion.map { "back in \($0)" } ?? "back")
                + " · \(Plural.count(group.count, "failure")) · \(Plural.count(group.installs, "install"))"
        }
        html += section("growing", "Growing", digest.growing, total: totals.growing) { group in
            "\(group.previousCount) → \(Plural.count(group.count, "failure")) · \(Plural.count(group.installs, "install"))"
        }
        html += section("fading", "Fading", digest.fading, total: totals.fading) { group in
            "\(group.previousCount) → \(Plural.count(group.count, "failure"))"
        }
        if !digest.endpoints.isEmpty {
            html += "<section id=\"endpoints\">\n<h2>Top breaking fields per endpoint</h2>\n"
            for endpoint in digest.endpoints {
                let app = digest.app == nil ? " <span class=\"app\">\(escape(endpoint.app))</span>" : ""
                html += "<h3><code>\(escape(endpoint.endpoint))</code>\(app) <span class=\"muted\">"
                html += "\(Plural.count(endpoint.count, "failure")) in \(Plural.count(endpoint.groups, "field"))</span></h3>\n"
                for field in endpoint.fields {
                    var details = [
                        Plural.count(field.count, "failure"), Plural.count(field.installs, "install"), "rate \(DigestText.rate(field.rate))",
                        field.status.rawValue,
                    ]
                    let versions = DigestText.versions(field)
                    if !versions.isEmpty { details.insert("versions \(versions)", at: 3) }
                    html += card(field, showEndpoint: false, detail: details.joined(separator: " · "))
                }
            }
            html += "</section>\n"
        }
        if let drift = digest.drift {
            html +=
                "<section id=\"drift\">\n<h2>\(escape(drift.headline.prefix(1).uppercased() + drift.headline.dropFirst()))</h2>\n"
            html +=
                "<p class=\"muted\">Judged against the apps' OpenAPI contracts; also \(escape(drift.others)).</p>\n<ul>\n"
            for entry in drift.backend {
                html += "<li><code>\(escape(entry.endpoint))</code> <code>\(escape(entry.path))</code> "
                html += "\(Plural.count(entry.count, "failure")): \(escape(entry.reason))</li>\n"
            }
            html += "</ul>\n</section>\n"
        }
        let rule = digest.growthRule
        html += """
            <footer>Growing: ≥ \(rule.minimumCount) failures, ≥ \(rule.minimumIncrease) more and \
            ≥ \(rule.factor)× the previous period. Fading: previous ≥ \(rule.minimumPrevious) and now \
            ≤ 1/\(rule.factor) of it. Bars: failures per hour, UTC. Generated \
            \(RFC3339.string(from: digest.generatedAt)).</footer>
            </main>
            </body>
            </html>

            """
        return html
    }

    /// The bar chart of one group's hourly failures.
    /// - Parameters:
    ///   - hourly: failures per hour, oldest first.
    ///   - label: the accessible name.
    /// - Returns: an `<svg>` element; an empty period draws a baseline only.
    public static func chart(_ hourly: [Int], label: String) -> String {
        let barWidth = 4, gap = 1, height = 32
        let width = max(1, hourly.count * (barWidth + gap) - gap)
        let peak = max(1, hourly.max() ?? 0)
        var svg = """
            <svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(width) \(height)" \
            preserveAspectRatio="none" role="img" aria-label="\(escape(label))"><title>\(escape(label))</title>\
            <rect class="base" x="0" y="\(height - 1)" width="\(width)" height="1"/>
            """
        for (index, count) in hourly.enumerated() where count > 0 {
            let barHeight = max(2, Int((Double(count) / Double(peak) * Double(height - 1)).rounded()))
            svg += "<rect x=\"\(index * (barWidth + gap))\" y=\"\(height - barHeight)\" width=\"\(barWidth)\" "
            svg += "height=\"\(barHeight)\"><title>\(count)</title></rect>"
        }
        return svg + "</svg>"
    }

    private static func section(
        _ id: String, _ title: String, _ groups: [DigestGroup], total: Int, _ detail: (DigestGroup) -> String
    ) -> String {
        guard !groups.isEmpty else { return "" }
        var html = "<section id=\"\(id)\">\n<h2>\(title) <span class=\"muted\">\(total)</span></h2>\n"
        for group in groups { html += card(group, showEndpoint: true, detail: detail(group)) }
        if total > groups.count { html += "<p class=\"muted\">… and \(total - groups.count) more</p>\n" }
        return html + "</section>\n"
    }

    private static func card(_ group: DigestGroup, showEndpoint: Bool, detail: String) -> String {
        let endpoint = showEndpoint ? "<code class=\"endpoint\">\(escape(group.endpoint))</code> " : ""
        let label = "Failures per hour of \(group.path): \(group.count) in the period, peak \(group.hourly.max() ?? 0)"
        return """
            <div class="group \(group.status.rawValue)" data-group="\(escape(group.group))">\
            <div class="what">\(endpoint)<code class="path">\(escape(group.path))</code> \
            <span class="kind">\(escape(group.kind.rawValue))</span>\
            \(group.expected.map { " <span class=\"muted\">expected \(escape($0))</span>" } ?? "")</div>\
            <div class="numbers">\(escape(detail))</div>\(chart(group.hourly, label: label))\
            <div class="id muted">\(escape(group.group))</div></div>

            """
    }

    /// One total: its number, its noun (singular for one) and a note.
    private static func stat(_ noun: String, _ value: Int, note: String?) -> String {
        let note = note.map { "<small>\(escape($0))</small>" } ?? ""
        return "<div class=\"stat\"><b>\(value)</b><span>\(Plural.noun(noun, value))</span>\(note)</div>"
    }

    /// The characters HTML escapes, and their entities.
    private static let entities: [Character: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;",
    ]

    /// Escapes text for HTML content and attribute values (and XML's, where `&#39;` is as valid).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            if let entity = entities[character] { out += entity } else { out.append(character) }
        }
        return out
    }

    private static let style = """
        body{margin:0;font:15px/1.45 -apple-system,system-ui,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#f6f7f9}\
        main{max-width:760px;margin:0 auto;padding:16px}h1{font-size:1.4em;margin:.2em 0}\
        h2{font-size:1.15em;margin:1.4em 0 .5em}h3{font-size:1em;margin:1.2em 0 .4em;word-break:break-all}\
        code{font:.92em ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all}\
        .period,.muted,footer{color:#5b6475}.totals{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:8px}\
        .stat{background:#fff;border-radius:8px;padding:10px;box-shadow:0 1px 2px #0001}\
        .stat b{display:block;font-size:1.5em}.stat span{margin-right:.4em}.stat small{color:#5b6475}\
        .group{background:#fff;border-radius:8px;padding:10px 12px;margin:8px 0;box-shadow:0 1px 2px #0001;\
        border-left:4px solid #8a94a6}.group.new{border-left-color:#d9822b}.group.regressed{border-left-color:#c23030}\
        .group.resolved{border-left-color:#2f8f4e}.kind{font-size:.85em;background:#eef0f4;border-radius:4px;padding:0 5px}\
        .numbers{margin:4px 0}.chart{display:block;width:100%;height:36px;fill:#4a6fd0}.chart .base{fill:#d5d9e0}\
        .id{font-size:.8em}footer{font-size:.85em;margin:2em 0 1em}
        """
}

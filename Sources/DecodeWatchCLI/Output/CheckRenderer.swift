import DecodeWatchCore
import Foundation

/// Renders a release check's verdict (docs/cli.md#check) for people (`text`), programs (`json`, the document of
/// `GET /v1/check`), CI test reports (`junit`) and GitHub Actions annotations (`github`).
enum CheckRenderer {
    /// The verdict in a format.
    /// - Parameter dashboard: the dashboard's public URL, for a link to each named field's page; `nil` for none.
    static func render(
        _ verdict: ReleaseVerdict, as format: DecodeWatchCommand.Check.Format, dashboard: URL?
    ) -> String {
        switch format {
        case .text: return text(verdict, dashboard: dashboard)
        case .json: return (try? CommandJSON.render(verdict)) ?? "\n"
        case .junit: return junit(verdict, dashboard: dashboard)
        case .github: return github(verdict, dashboard: dashboard)
        }
    }

    /// The verdict's sentence, the window, then three lines per named field.
    static func text(_ verdict: ReleaseVerdict, dashboard: URL?) -> String {
        var lines = [
            "\(verdict.verdict.rawValue.uppercased()): \(verdict.summary)",
            "Window \(RFC3339.string(from: verdict.since)) → \(RFC3339.string(from: verdict.until)), "
                + "\(Plural.count(verdict.decodes, "decode")) of \(verdict.version).",
        ]
        for field in verdict.fields {
            lines.append("")
            lines.append("  \(field.endpoint)  \(field.path)  \(field.kind.rawValue)")
            lines.append("    \(numbers(field, of: verdict)). \(field.reason)")
            if let page = AlertField.page(of: field.group, under: dashboard) {
                lines.append("    \(page.absoluteString)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One test case per named field: a `failure` for a failing one, an `error` for one that cannot be judged; a
    /// version with too few decodes is one `error` test case. A passing run is a suite without test cases.
    static func junit(_ verdict: ReleaseVerdict, dashboard: URL?) -> String {
        var cases: [String] = []
        for field in verdict.fields {
            let element = field.outcome == .fail ? "failure" : "error"
            var detail = numbers(field, of: verdict) + "\n" + field.reason
            if let page = AlertField.page(of: field.group, under: dashboard) { detail += "\n" + page.absoluteString }
            cases.append(
                """
                    <testcase classname="\(xml(field.endpoint))" name="\(xml("\(field.path) \(field.kind.rawValue)"))">
                      <\(element) message="\(xml(field.reason))" type="\(field.outcome.rawValue)">\(xml(detail))</\(element)>
                    </testcase>
                """)
        }
        if verdict.verdict == .insufficient && verdict.fields.isEmpty {
            cases.append(
                """
                    <testcase classname="decodes" name="\(xml("decodes of \(verdict.version)"))">
                      <error message="\(xml(verdict.summary))" type="insufficient">\(xml(verdict.summary))</error>
                    </testcase>
                """)
        }
        let failures = verdict.fields.filter { $0.outcome == .fail }.count
        let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(cases.count - failures)\""
        let suite = xml("\(verdict.app) \(verdict.version)")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="decodewatch check" \(counts)>
              <testsuite name="\(suite)" \(counts) timestamp="\(RFC3339.string(from: verdict.until))">
            \(cases.map { $0 + "\n" }.joined())  </testsuite>
            </testsuites>

            """
    }

    /// One `::error::` workflow command per named field (or one for a version with too few decodes), and a
    /// `::notice::` for a pass.
    static func github(_ verdict: ReleaseVerdict, dashboard: URL?) -> String {
        let title = "title=\(property("decodewatch check \(verdict.app) \(verdict.version)"))"
        guard !verdict.fields.isEmpty else {
            let level = verdict.verdict == .pass ? "notice" : "error"
            return "::\(level) \(title)::\(message(verdict.summary))\n"
        }
        return verdict.fields.map { field in
            var text =
                "\(field.endpoint) \(field.path) \(field.kind.rawValue): \(numbers(field, of: verdict)). "
                + field.reason
            if let page = AlertField.page(of: field.group, under: dashboard) { text += " " + page.absoluteString }
            return "::error \(title)::\(message(text))\n"
        }.joined()
    }

    /// A field's rate, the baseline's and its count, e.g. `rate 3.1% (5.2.0: 0.2%), 155 reports`.
    private static func numbers(_ field: CheckedField, of verdict: ReleaseVerdict) -> String {
        var text = "rate \(percent(field.rate))"
        if let baseline = verdict.baseline { text += " (\(baseline): \(percent(field.baselineRate)))" }
        return text + ", " + Plural.count(field.count, "report")
    }

    /// A rate as a percentage of at most 3 decimals, or `unknown`.
    private static func percent(_ rate: Double?) -> String {
        guard let rate else { return "unknown" }
        var text = String(format: "%.3f", rate * 100)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "%"
    }

    /// Text for an XML attribute or element: markup characters escaped as for HTML, and the characters XML 1.0
    /// cannot hold (control characters but tab, LF and CR; U+FFFE, U+FFFF) replaced by U+FFFD.
    static func xml(_ text: String) -> String {
        let storable = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            let allowed = scalar.value >= 0x20 || ["\t", "\n", "\r"].contains(scalar)
            return allowed && scalar.value != 0xFFFE && scalar.value != 0xFFFF ? scalar : "\u{FFFD}"
        }
        return DigestHTMLRenderer.escape(String(String.UnicodeScalarView(storable)))
    }

    /// A workflow command's message: `%`, CR and LF percent-encoded, as the runner decodes them.
    static func message(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A workflow command's property value: a message's escapes, and `:` and `,` too.
    static func property(_ text: String) -> String {
        message(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}

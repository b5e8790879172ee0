@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// The Markdown report for a backend team: ready to paste into an issue tracker, it says where, what the spec
/// promises, what was received, since when, for which app versions and how often.
///
/// Written for every breaking field: `suggest` and `GET /v1/fields` carry it when the backend breaks its spec, and an
/// issue opened for a group (docs/cli.md#issue) carries it whatever the verdict, without the spec's part when the app
/// has no contract.
enum BackendReport {
    /// The report's heading, without its Markdown: "GET /v2/posts: $.results[*].likes breaks the API spec", or, without
    /// that verdict, what went wrong: "GET /v2/posts: $.results[*].likes arrives as a string (\"12\") where the app
    /// expects Int".
    /// - Parameters:
    ///   - field: the breaking field.
    ///   - judgement: its verdict, when its app has a contract.
    ///   - problem: what went wrong, after the field's path.
    static func title(field: FieldSummary, judgement: DriftJudgement?, problem: String) -> String {
        "\(field.endpoint): \(field.path) "
            + (judgement?.verdict == .backendViolatesSpec ? "breaks the API spec" : problem)
    }

    /// Writes the report.
    /// - Parameters:
    ///   - field: the breaking field.
    ///   - judgement: its verdict, when its app has a contract.
    ///   - problem: what went wrong, after the field's path ("is missing"), said when the verdict does not say it.
    ///   - received: the value its sample shows.
    ///   - since: the start of the window the numbers cover.
    ///   - until: the end of that window.
    ///   - link: the group's dashboard page, when known.
    /// - Returns: Markdown.
    static func markdown(
        field: FieldSummary, judgement: DriftJudgement?, problem: String, received: SampledValue, since: Date,
        until: Date, link: URL? = nil
    ) -> String {
        var rows: [(String, String)] = [("Field", code(field.path)), ("Endpoint", code(field.endpoint))]
        if let judgement, judgement.verdict != .backendViolatesSpec {
            rows.append(("Contract verdict", code(judgement.verdict.rawValue)))
        }
        if let spec = judgement?.spec {
            var parts = [code(spec.contract)]
            if let operation = spec.operation {
                parts.append("operation " + code(operation) + (spec.status.map { " (\($0))" } ?? ""))
            }
            if let location = spec.location { parts.append(code(location)) }
            rows.append(("Spec", parts.joined(separator: ", ")))
            if !spec.promises.isEmpty { rows.append(("Spec says", spec.promises)) }
        }
        rows.append(("Received", received.type == .absent ? "no value (key missing)" : received.type.rawValue))
        rows.append(("App expects", field.expected.map(code) ?? "not reported"))
        rows.append(("Failure", code(field.kind.rawValue) + (field.sample.message.map { ": " + $0 } ?? "")))
        rows.append(("First seen", RFC3339.string(from: field.firstSeen)))
        rows.append(("Last seen", RFC3339.string(from: field.lastSeen)))
        let versions = field.versions.sorted { $0.value == $1.value ? $0.key > $1.key : $0.value > $1.value }
        if !versions.isEmpty {
            rows.append(("App versions", versions.map { "\(code($0.key)) (\($0.value))" }.joined(separator: ", ")))
        }
        let rate = field.rate.map { String(format: ", %.2f %% of decodes of the endpoint", $0 * 100) } ?? ""
        rows.append(
            (
                "Failures",
                "\(field.count) from \(Plural.count(field.installs, "install")) between \(RFC3339.string(from: since)) and "
                    + "\(RFC3339.string(from: until))\(rate)"
            ))

        let reason =
            judgement?.reason
            ?? "Responses of \(code(field.endpoint)) break the app's decoding: \(field.path) \(problem)."
        var lines = [
            "### " + title(field: field, judgement: judgement, problem: problem), "", reason, "", "| | |", "|---|---|",
        ]
        lines += rows.map { "| \($0.0) | \(cell($0.1)) |" }
        if let snippet = field.sample.snippet {
            let fence = Self.fence(for: snippet)
            lines += ["", "Latest response at the field (redacted):", "", fence + "json", snippet, fence]
        }
        lines += ["", "Reported by DecodeWatch: app \(code(field.app)), group \(code(field.group))."]
        if let link { lines += ["", "Dashboard: <\(link.absoluteString)>"] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Inline code that survives backticks in the text.
    private static func code(_ text: String) -> String {
        let longest = longestRun(of: "`", in: text)
        let ticks = String(repeating: "`", count: longest + 1)
        let pad = text.hasPrefix("`") || text.hasSuffix("`") || longest > 0 ? " " : ""
        return ticks + pad + text + pad + ticks
    }

    /// A table cell: pipes escaped, line breaks as spaces.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\r\n", with: " ")
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }

    /// A code fence longer than any run of backticks in the text.
    private static func fence(for text: String) -> String {
        String(repeating: "`", count: max(3, longestRun(of: "`", in: text) + 1))
    }

    private static func longestRun(of character: Character, in text: String) -> Int {
        var longest = 0
        var run = 0
        for next in text {
            run = next == character ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}

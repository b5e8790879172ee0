import DecodeWatchCore

/// A group's fix as the group page shows it: the sentence, the Swift change in a code block and the backend team's
/// report in a read-only text area, to select and copy without JavaScript.
struct SuggestionView: Sendable {
    /// The remedy's name, for tests and styling.
    let remedy: String
    /// One sentence.
    let summary: String
    /// The Swift change, when there is one.
    let swift: String?
    /// The Markdown report, when the backend breaks its spec.
    let backendReport: String?
    /// Lines the report's text area shows without scrolling.
    let reportRows: Int

    init(_ suggestion: Suggestion) {
        remedy = suggestion.remedy.rawValue
        summary = suggestion.summary
        swift = suggestion.swift
        backendReport = suggestion.backendReport
        reportRows = min(
            30, (suggestion.backendReport?.split(separator: "\n", omittingEmptySubsequences: false).count ?? 0) + 1)
    }
}

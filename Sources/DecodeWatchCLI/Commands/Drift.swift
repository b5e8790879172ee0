import ArgumentParser
import DecodeWatchCore
import DecodeWatchStore
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch drift`: who owns each breaking field, judged against the app's OpenAPI contract.
    struct Drift: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show whether each breaking field breaks the backend's spec, the app's model, or no spec.",
            discussion: """
                Only apps with a contract are judged (`decodewatch contracts import`). Verdicts: \
                \(DriftVerdict.allCases.map(\.rawValue).joined(separator: ", ")).
                """)

        @OptionGroup var source: SourceOptions
        @OptionGroup var filters: FieldFilterOptions
        @Option(help: "Only this verdict: \(DriftVerdict.allCases.map(\.rawValue).joined(separator: ", ")).")
        var verdict: DriftVerdict?
        @Option(help: "Most groups judged (1–\(FieldsQuery.maxLimit)).") var limit = FieldsQuery.defaultLimit
        @Option(help: "Output format: table, json or csv.") var format: Fields.Format = .table

        func validate() throws { try FieldFilterOptions.check(limit: limit) }

        func run() async throws {
            let report = try await filters.read(
                from: source, limit: limit, path: "/v1/drift", extra: ["verdict": verdict?.rawValue]
            ) { DriftReport(summary: $0, verdict: verdict) }
            try UnknownValues.print(
                { DriftRenderer.render(report, as: format) }, warnings: report.warnings, json: format == .json)
        }
    }
}

extension DriftVerdict: ExpressibleByArgument {}

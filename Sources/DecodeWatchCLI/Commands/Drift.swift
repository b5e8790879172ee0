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
            let query = try filters.query(limit: limit, now: Date())
            let report: DriftReport
            switch try source.source() {
            case .store(let store):
                let summary = try await store.withStore { try await $0.judgedFields(query, now: Date()) }
                report = DriftReport(summary: summary, verdict: verdict)
            case .collector(let collector):
                report = try await collector.get(
                    DriftReport.self, "/v1/drift",
                    query: filters.collectorQuery(limit: limit, ["verdict": verdict?.rawValue]))
            }
            if UnknownValues.printsAnswer(report.warnings, json: format == .json) {
                print(DriftRenderer.render(report, as: format), terminator: "")
            }
            try UnknownValues.exitIfAny(report.warnings)
        }
    }
}

extension DriftVerdict: ExpressibleByArgument {}

import ArgumentParser
import DecodeWatchCore
import DecodeWatchStore
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch fields`: which backend fields are breaking (docs/cli.md#fields).
    struct Fields: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the breaking fields: where, since when, how often, for which versions.")

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case table, json, csv

            /// A document of breaking fields (`fields`, `drift`) in this format: JSON as the collector answers it,
            /// else as `table` or `csv` writes it.
            func render<Document: Encodable>(
                _ document: Document, table: (Document) -> String, csv: (Document) -> String
            ) -> String {
                switch self {
                case .json: return (try? CommandJSON.render(document)) ?? "\n"
                case .csv: return csv(document)
                case .table: return table(document)
                }
            }
        }

        @OptionGroup var source: SourceOptions
        @OptionGroup var filters: FieldFilterOptions
        @Option(help: "Most groups shown (1–\(FieldsQuery.maxLimit)).") var limit = FieldsQuery.defaultLimit
        @Option(help: "Output format: table, json or csv.") var format: Format = .table

        func validate() throws { try FieldFilterOptions.check(limit: limit) }

        func run() async throws {
            let query = try filters.query(limit: limit, now: Date())
            // Statuses with decisions applied (resolved in the next version) and contract verdicts, as
            // `GET /v1/fields` answers them.
            let summary: FieldsSummary
            switch try source.source() {
            case .store(let store):
                summary = try await store.withStore { try await $0.judgedFields(query, now: Date()) }
            case .collector(let collector):
                summary = try await collector.get(
                    FieldsSummary.self, "/v1/fields",
                    query: filters.collectorQuery(limit: limit))
            }
            if UnknownValues.printsAnswer(summary.warnings, json: format == .json) {
                print(FieldsRenderer.render(summary, as: format), terminator: "")
            }
            try UnknownValues.exitIfAny(summary.warnings)
        }
    }
}

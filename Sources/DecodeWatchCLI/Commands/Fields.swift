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
            let summary = try await filters.read(from: source, limit: limit, path: "/v1/fields") { $0 }
            try UnknownValues.print(
                { FieldsRenderer.render(summary, as: format) }, warnings: summary.warnings, json: format == .json)
        }
    }
}

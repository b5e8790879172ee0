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
        }

        @OptionGroup var source: SourceOptions
        @Option(help: "Only this app id.") var app: String?
        @Option(help: "Only this endpoint, e.g. 'GET /v2/posts' (normalized like reports).") var endpoint: String?
        @Option(help: "Only this kind: \(ReportKind.allCases.map(\.rawValue).joined(separator: ", ")).") var kind:
            String?
        @Option(help: "Only this app version's reports, with rates over its own decodes.") var version: String?
        @Option(help: "Only this environment's reports (production, staging, debug, …), with rates over its decodes.")
        var environment: String?
        @Option(help: "Window start: RFC 3339 time or a duration back from now such as 24h or 7d. Default: 24h.")
        var since: String?
        @Option(help: "Window end: RFC 3339 time or a duration back from now. Default: now.") var until: String?
        @Option(help: "Most groups shown (1–\(FieldsQuery.maxLimit)).") var limit = FieldsQuery.defaultLimit
        @Option(help: "Output format: table, json or csv.") var format: Format = .table

        func run() async throws {
            let query: FieldsQuery
            do {
                query = try FieldsQuery.parse(
                    app: app, endpoint: endpoint, kind: kind, version: version, environment: environment, since: since,
                    until: until,
                    limit: String(limit),
                    now: Date())
            } catch {
                throw ValidationError(error.message)
            }
            // Statuses with decisions applied (resolved in the next version) and contract verdicts, as
            // `GET /v1/fields` answers them.
            let summary: FieldsSummary
            switch try source.source() {
            case .store(let store):
                summary = try await store.withStore { try await $0.judgedFields(query, now: Date()) }
            case .collector(let collector):
                summary = try await collector.get(
                    FieldsSummary.self, "/v1/fields",
                    query: [
                        "app": app, "endpoint": endpoint, "kind": kind, "version": version, "environment": environment,
                        "since": since,
                        "until": until, "limit": String(limit),
                    ])
            }
            print(FieldsRenderer.render(summary, as: format), terminator: "")
        }
    }
}

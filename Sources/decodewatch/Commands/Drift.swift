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
        @Option(help: "Only this app id.") var app: String?
        @Option(help: "Only this endpoint, e.g. 'GET /v2/posts' (normalized like reports).") var endpoint: String?
        @Option(help: "Only this kind: \(ReportKind.allCases.map(\.rawValue).joined(separator: ", ")).") var kind:
            String?
        @Option(help: "Only this app version's reports, with rates over its own decodes.") var version: String?
        @Option(help: "Only this environment's reports (production, staging, debug, …), with rates over its decodes.")
        var environment: String?
        @Option(help: "Only this verdict: \(DriftVerdict.allCases.map(\.rawValue).joined(separator: ", ")).")
        var verdict: String?
        @Option(help: "Window start: RFC 3339 time or a duration back from now such as 24h or 7d. Default: 24h.")
        var since: String?
        @Option(help: "Window end: RFC 3339 time or a duration back from now. Default: now.") var until: String?
        @Option(help: "Most groups judged (1–\(FieldsQuery.maxLimit)).") var limit = FieldsQuery.defaultLimit
        @Option(help: "Output format: table, json or csv.") var format: Fields.Format = .table

        func run() async throws {
            let query: FieldsQuery
            let verdictValue: DriftVerdict?
            do {
                query = try FieldsQuery.parse(
                    app: app, endpoint: endpoint, kind: kind, version: version, environment: environment, since: since,
                    until: until,
                    limit: String(limit),
                    now: Date())
                verdictValue = try DriftVerdict.parse(verdict)
            } catch {
                throw ValidationError(error.message)
            }
            let report: DriftReport
            switch try source.source() {
            case .store(let store):
                let summary = try await store.withStore { try await $0.judgedFields(query, now: Date()) }
                report = DriftReport(summary: summary, verdict: verdictValue)
            case .collector(let collector):
                report = try await collector.get(
                    DriftReport.self, "/v1/drift",
                    query: [
                        "app": app, "endpoint": endpoint, "kind": kind, "version": version, "environment": environment,
                        "verdict": verdict,
                        "since": since, "until": until, "limit": String(limit),
                    ])
            }
            print(DriftRenderer.render(report, as: format), terminator: "")
        }
    }
}

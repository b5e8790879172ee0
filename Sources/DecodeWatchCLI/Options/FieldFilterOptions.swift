import ArgumentParser
import DecodeWatchCore
import Foundation

/// The filters of the commands that read breaking fields (`fields`, `drift`): the options of `GET /v1/fields`,
/// parsed by the same ``FieldsQuery/parse(app:endpoint:kind:version:environment:since:until:limit:status:now:normalizer:)``.
struct FieldFilterOptions: ParsableArguments {
    @Option(help: "Only this app id.") var app: String?
    @Option(help: "Only this endpoint, e.g. 'GET /v2/posts' (normalized like reports).") var endpoint: String?
    @Option(help: "Only this kind: \(ReportKind.allCases.map(\.rawValue).joined(separator: ", ")).") var kind: String?
    @Option(help: "Only this app version's reports, with rates over its own decodes.") var version: String?
    @Option(help: "Only this environment's reports (production, staging, debug, …), with rates over its decodes.")
    var environment: String?
    @Option(help: "Window start: RFC 3339 time or a duration back from now such as 24h or 7d. Default: 24h.")
    var since: String?
    @Option(help: "Window end: RFC 3339 time or a duration back from now. Default: now.") var until: String?
    @Option(
        help: "Only this status: \(GroupStatus.allCases.map(\.rawValue).joined(separator: ", ")) or all. Default: all.")
    var status: String?

    /// The query the filters ask for.
    /// - Throws: `ValidationError` naming the filter that is wrong.
    func query(limit: Int, now: Date) throws -> FieldsQuery {
        do {
            return try FieldsQuery.parse(
                app: app, endpoint: endpoint, kind: kind, version: version, environment: environment, since: since,
                until: until, limit: String(limit), status: status, now: now)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The same filters as a collector's query string, `extra` added (`verdict` for drift).
    func collectorQuery(limit: Int, _ extra: [String: String?] = [:]) -> [String: String?] {
        [
            "app": app, "endpoint": endpoint, "kind": kind, "version": version, "environment": environment,
            "since": since, "until": until, "limit": String(limit), "status": status,
        ].merging(extra) { _, added in added }
    }
}

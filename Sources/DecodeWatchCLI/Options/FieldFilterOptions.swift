import ArgumentParser
import DecodeWatchCore
import Foundation

/// The filters of the commands that read breaking fields (`fields`, `drift`): the options of `GET /v1/fields`,
/// parsed by the same ``FieldsQuery/parse(app:endpoint:kind:version:environment:since:until:limit:status:now:normalizer:)``.
///
/// Each value is checked here, under its flag's name, so that a bad one is a usage error of the command that
/// took it; the parser the API shares then has nothing left to refuse.
struct FieldFilterOptions: ParsableArguments {
    @Option(help: "Only this app id.") var app: String?
    @Option(help: "Only this endpoint, e.g. 'GET /v2/posts' (normalized like reports).") var endpoint: String?
    @Option(help: "Only this kind: \(ReportKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var kind: ReportKind?
    @Option(help: "Only this app version's reports, with rates over its own decodes.") var version: String?
    @Option(help: "Only this environment's reports (production, staging, debug, …), with rates over its decodes.")
    var environment: String?
    @Option(
        help: "Window start: RFC 3339 time or a duration back from now such as 24h, 7d or '2 days'. Default: 24h.")
    var since: TimeArgument?
    @Option(help: "Window end: RFC 3339 time or a duration back from now. Default: now.") var until: TimeArgument?
    @Option(
        help: "Only this status: \(GroupStatus.allCases.map(\.rawValue).joined(separator: ", ")) or all. Default: all.")
    var status: String?
    @Option(
        help: ArgumentHelp(
            "Only the groups whose path, endpoint, expected type, type name or message contains this text, in any case.",
            valueName: "text"))
    var search: String?

    func validate() throws {
        if let app, app.isEmpty { throw ValidationError("--app must not be empty.") }
        if let version, version.isEmpty { throw ValidationError("--version must not be empty.") }
        if let search, search.isEmpty || search.count > FieldsQuery.maxSearch {
            throw ValidationError("--search must be 1–\(FieldsQuery.maxSearch) characters of text to look for.")
        }
        if let endpoint, EndpointNormalizer().normalize(endpoint) == nil {
            throw ValidationError("--endpoint '\(endpoint)' is not \"METHOD /path\", e.g. \"GET /v2/posts\".")
        }
        do {
            _ = try EnvironmentName.filter(environment, field: "--environment")
            _ = try GroupStatus.filter(status, field: "--status")
            _ = try FieldsQuery.window(
                since: since?.text, until: until?.text, now: Date(), names: ("--since", "--until"))
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// Checks a command's `--limit`, which each command names in its own help.
    /// - Throws: `ValidationError` when it is outside 1…``FieldsQuery/maxLimit``.
    static func check(limit: Int) throws {
        guard (1...FieldsQuery.maxLimit).contains(limit) else {
            throw ValidationError("--limit \(limit) must be a whole number from 1 to \(FieldsQuery.maxLimit).")
        }
    }

    /// The query the filters ask for.
    /// - Throws: `ValidationError` naming the filter that is wrong.
    func query(limit: Int, now: Date) throws -> FieldsQuery {
        try Self.check(limit: limit)
        do {
            return try FieldsQuery.parse(
                app: app, endpoint: endpoint, kind: kind?.rawValue, version: version, environment: environment,
                since: since?.text, until: until?.text, limit: String(limit), status: status, search: search,
                searchField: "--search", now: now)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The document of the breaking fields the filters ask for: made from the database's summary, with decisions
    /// applied (resolved in the next version) and contract verdicts, or as the collector answers it at `path`.
    /// - Parameters:
    ///   - source: where the answers come from.
    ///   - limit: the command's `--limit`.
    ///   - path: the collector's route for the document (`/v1/fields`, `/v1/drift`).
    ///   - extra: query items beyond the filters (`verdict` for drift).
    ///   - document: the document made from the summary, as the collector makes it.
    /// - Throws: `ValidationError` naming the filter that is wrong, or what the source throws.
    func read<Document: Decodable>(
        from source: SourceOptions, limit: Int, path: String, extra: [String: String?] = [:],
        document: (FieldsSummary) -> Document
    ) async throws -> Document {
        let query = try query(limit: limit, now: Date())
        switch try source.source() {
        case .store(let store):
            return document(try await store.withStore { try await $0.judgedFields(query, now: Date()) })
        case .collector(let collector):
            return try await collector.get(Document.self, path, query: collectorQuery(limit: limit, extra))
        }
    }

    /// The same filters as a collector's query string, `extra` added (`verdict` for drift).
    func collectorQuery(limit: Int, _ extra: [String: String?] = [:]) -> [String: String?] {
        [
            "app": app, "endpoint": endpoint, "kind": kind?.rawValue, "version": version, "environment": environment,
            "since": since?.text, "until": until?.text, "limit": String(limit), "status": status, "q": search,
        ].merging(extra) { _, added in added }
    }
}

extension ReportKind: @retroactive ExpressibleByArgument {}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Hummingbird

/// `GET /v1/fields`: the breaking-fields summary (docs/api.md#breaking-fields), and `POST /v1/groups/{group}/resolve`.
///
/// Also `GET /v1/drift`: each breaking group of an app with a contract, with its verdict
/// (docs/triage.md, "Contract drift").
/// It takes the same filters as the summary, plus `verdict`; the contracts are read once per request and every group
/// is judged in memory.
struct FieldsController<Context: AccessRequestContext>: Sendable {
    let store: any FieldReads & GroupActionStore & ContractStore
    let normalizer: EndpointNormalizer

    func addRoutes(to router: some RouterMethods<Context>) {
        router.get("/v1/fields", use: fields)
        router.get("/v1/drift", use: drift)
        router.post("/v1/groups/:group/resolve", use: resolve)
    }

    @Sendable func fields(request: Request, context: Context) async throws -> Response {
        let now = Date()
        let query = try fieldsQuery(FormValues(query: request, accepting: Self.filters), now: now)
        return try Response.json(try await store.judgedFields(query, now: now))
    }

    @Sendable func drift(request: Request, context: Context) async throws -> Response {
        let parameters = try FormValues(query: request, accepting: Self.filters.union(["verdict"]))
        let now = Date()
        let query = try fieldsQuery(parameters, now: now)
        let verdict = try DriftVerdict.parse(parameters["verdict"])
        let summary = try await store.judgedFields(query, now: now)
        return try Response.json(DriftReport(summary: summary, verdict: verdict))
    }

    /// The parameters of the summary, which drift takes too.
    static var filters: Set<String> {
        ["app", "endpoint", "kind", "version", "environment", "since", "until", "limit", "status", "q"]
    }

    /// The filters of a query string, shared by the summary and drift.
    private func fieldsQuery(_ parameters: FormValues, now: Date) throws -> FieldsQuery {
        try FieldsQuery.parse(
            app: parameters["app"], endpoint: parameters["endpoint"], kind: parameters["kind"],
            version: parameters["version"], environment: parameters["environment"], since: parameters["since"],
            until: parameters["until"],
            limit: parameters["limit"], status: parameters["status"], search: parameters["q"], now: now,
            normalizer: normalizer)
    }

    @Sendable func resolve(request: Request, context: Context) async throws -> Response {
        try context.access.require(.resolve)
        let group = try await store.group(namedIn: context)
        let now = Date()
        try await store.apply(.resolve, to: group, at: now, by: context.access.actor)
        return try Response.json([
            "group": group, "status": GroupStatus.resolved.rawValue, "resolved_at": RFC3339.string(from: now),
        ])
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Hummingbird

/// `GET /v1/drift`: each breaking group of an app with a contract, with its verdict (README, "Contract drift").
///
/// The same filters as `GET /v1/fields`, plus `verdict`; the contracts are read once per request and every
/// group is judged in memory.
struct DriftController<Context: RequestContext>: Sendable {
    let store: any CollectorStore
    let normalizer: EndpointNormalizer

    func addRoutes(to router: some RouterMethods<Context>) {
        router.get("/v1/drift", use: drift)
    }

    @Sendable func drift(request: Request, context: Context) async throws -> Response {
        let parameters = FormValues(query: request)
        let now = Date()
        let query = try FieldsQuery.parse(
            app: parameters["app"], endpoint: parameters["endpoint"], kind: parameters["kind"],
            since: parameters["since"], until: parameters["until"], limit: parameters["limit"], now: now,
            normalizer: normalizer)
        let verdict = try DriftVerdict.parse(parameters["verdict"])
        let summary = try await store.judgedFields(query, now: now)
        return try Response.json(DriftReport(summary: summary, verdict: verdict))
    }
}

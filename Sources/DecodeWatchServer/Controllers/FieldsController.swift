import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Hummingbird

/// `GET /v1/fields`: the breaking-fields summary (docs/api.md#breaking-fields), and `POST /v1/groups/{group}/resolve`.
struct FieldsController<Context: RequestContext>: Sendable {
    let store: any CollectorStore
    let normalizer: EndpointNormalizer

    func addRoutes(to router: some RouterMethods<Context>) {
        router.get("/v1/fields", use: fields)
        router.post("/v1/groups/:group/resolve", use: resolve)
    }

    @Sendable func fields(request: Request, context: Context) async throws -> Response {
        let parameters = FormValues(query: request)
        let now = Date()
        let query = try FieldsQuery.parse(
            app: parameters["app"], endpoint: parameters["endpoint"], kind: parameters["kind"],
            since: parameters["since"], until: parameters["until"], limit: parameters["limit"], now: now,
            normalizer: normalizer)
        return try Response.json(try await store.judgedFields(query, now: now))
    }

    @Sendable func resolve(request: Request, context: Context) async throws -> Response {
        let group = try context.parameters.require("group")
        let now = Date()
        try await store.apply(.resolve, to: group, at: now)
        return try Response.json([
            "group": group, "status": GroupStatus.resolved.rawValue, "resolved_at": RFC3339.string(from: now),
        ])
    }
}

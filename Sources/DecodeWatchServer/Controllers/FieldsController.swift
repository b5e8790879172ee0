import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Hummingbird

/// `GET /v1/fields`: the breaking-fields summary (SPEC §3), and `POST /v1/groups/{group}/resolve`.
struct FieldsController<Context: RequestContext>: Sendable {
    let store: any ReportStore
    let normalizer: EndpointNormalizer

    func addRoutes(to router: some RouterMethods<Context>) {
        router.get("/v1/fields", use: fields)
        router.post("/v1/groups/:group/resolve", use: resolve)
    }

    @Sendable func fields(request: Request, context: Context) async throws -> Response {
        let parameters = request.uri.queryParameters
        let query = try FieldsQuery.parse(
            app: parameters["app"].map(String.init), endpoint: parameters["endpoint"].map(String.init),
            kind: parameters["kind"].map(String.init), since: parameters["since"].map(String.init),
            until: parameters["until"].map(String.init), limit: parameters["limit"].map(String.init),
            now: Date(), normalizer: normalizer)
        return try Response.json(try await store.fields(query))
    }

    @Sendable func resolve(request: Request, context: Context) async throws -> Response {
        let group = try context.parameters.require("group")
        let now = Date()
        try await store.resolve(group: group, at: now)
        return try Response.json([
            "group": group, "status": GroupStatus.resolved.rawValue, "resolved_at": RFC3339.string(from: now),
        ])
    }
}

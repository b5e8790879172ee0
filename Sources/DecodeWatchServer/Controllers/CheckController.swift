import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Hummingbird

/// `GET /v1/check`: the release check of one app version (docs/api.md#release-check).
///
/// Every verdict, `insufficient` included, is an answer: 200 with the verdict's document. Only a missing or bad
/// parameter is refused (400 `invalid_query`).
struct CheckController<Context: RequestContext>: Sendable {
    let store: any FieldReads

    func addRoutes(to router: some RouterMethods<Context>) {
        router.get("/v1/check", use: check)
    }

    @Sendable func check(request: Request, context: Context) async throws -> Response {
        let parameters = try FormValues(
            query: request,
            accepting: ["app", "version", "baseline", "environment", "since", "max_rate", "max_ratio", "min_decodes"])
        let query = try ReleaseCheckQuery.parse(
            app: parameters["app"], version: parameters["version"], baseline: parameters["baseline"],
            environment: parameters["environment"],
            since: parameters["since"], maxRate: parameters["max_rate"], maxRatio: parameters["max_ratio"],
            minDecodes: parameters["min_decodes"], now: Date(), spelling: .query)
        return try Response.json(try await store.check(query))
    }
}

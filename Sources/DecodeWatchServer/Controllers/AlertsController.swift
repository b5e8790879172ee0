import DecodeWatchCore
import DecodeWatchStore
import Hummingbird

/// `GET /v1/alerts`: the alert rules, as `decodewatch alerts list` shows them (docs/api.md#alert-rules).
struct AlertsController<Context: RequestContext>: Sendable {
    let store: any AlertStore

    func addRoutes(to router: some RouterMethods<Context>) {
        router.get("/v1/alerts") { request, _ in
            _ = try FormValues(query: request, accepting: [])
            return try Response.json(try await store.alertRules().map(AlertRuleListing.init))
        }
    }
}

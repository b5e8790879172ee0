import DecodeWatchCore
import DecodeWatchStore
import Hummingbird

/// `GET /v1/contracts[?app=A]`: every stored version of the apps' OpenAPI contracts, as `decodewatch contracts
/// list --format json` prints them (docs/api.md#contracts).
struct ContractsController<Context: RequestContext>: Sendable {
    let store: any ContractStore

    func addRoutes(to router: some RouterMethods<Context>) {
        router.get("/v1/contracts") { request, _ in
            let values = try FormValues(query: request, accepting: ["app"])
            return try Response.json(try await store.contracts(app: values.nonEmpty("app")))
        }
    }
}

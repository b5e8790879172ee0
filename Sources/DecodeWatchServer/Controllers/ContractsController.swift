import DecodeWatchCore
import DecodeWatchStore
import Hummingbird

/// `GET /v1/contracts[?app=A]`: every stored version of the apps' OpenAPI contracts, as `decodewatch contracts
/// list --format json` prints them (docs/api.md#contracts).
struct ContractsController<Context: RequestContext>: Sendable {
    let store: any ContractStore

    func addRoutes(to router: some RouterMethods<Context>) {
        router.get("/v1/contracts") { request, _ in
            try Response.json(try await store.contracts(app: FormValues(query: request).nonEmpty("app")))
        }
    }
}

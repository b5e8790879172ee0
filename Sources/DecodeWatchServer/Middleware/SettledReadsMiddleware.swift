import DecodeWatchStore
import Hummingbird

/// Holds each read until the batches the collector acknowledged before it are in the rollups (``BatchSink/settle()``),
/// once per request: an acknowledged batch is in every answer, however many store calls the answer makes. Requests
/// that change something do not wait; they read nothing ingest writes.
struct SettledReadsMiddleware<Context: RequestContext>: RouterMiddleware {
    let sink: any BatchSink

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if request.method == .get || request.method == .head { try await sink.settle() }
        return try await next(request, context)
    }
}

import DecodeWatchStore
import Hummingbird

/// Requires a read token on the routes behind it once any read token exists (docs/api.md#access), and tells the
/// routes what the token's scope allows (``AccessRequestContext/access``).
struct ReadAccessMiddleware<Context: AccessRequestContext>: RouterMiddleware {
    let verifier: CredentialVerifier

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        let credential = try await verifier.requiredCredential(
            .read, of: request, missing: .readTokenRequired, invalid: .invalidReadToken)
        context.access = credential.map { .token($0.scope ?? .read, actor: $0.actor) } ?? .open
        return try await next(request, context)
    }
}

extension APIError {
    /// The refusal of a read without a read token, once one exists.
    static let readTokenRequired = APIError(
        .unauthorized, "read_token_required",
        "Reading this collector needs a read token: send 'Authorization: Bearer <token>' "
            + "(create one with `decodewatch tokens create --name NAME`).")

    /// The refusal of a read token that is unknown or revoked.
    static let invalidReadToken = APIError(
        .unauthorized, "invalid_read_token",
        "The read token is unknown or revoked; check it with `decodewatch tokens list`.")
}

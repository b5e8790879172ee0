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
        guard try await verifier.isRequired(.read) else {
            context.access = .open
            return try await next(request, context)
        }
        guard let secret = request.bearerToken else {
            throw APIError(
                .unauthorized, "read_token_required",
                "Reading this collector needs a read token: send 'Authorization: Bearer <token>' "
                    + "(create one with `decodewatch tokens create --name NAME`).")
        }
        guard let credential = try await verifier.verify(secret: secret, kind: .read) else {
            throw APIError(
                .unauthorized, "invalid_read_token",
                "The read token is unknown or revoked; check it with `decodewatch tokens list`.")
        }
        context.access = .token(credential.scope ?? .read, actor: credential.actor)
        return try await next(request, context)
    }
}

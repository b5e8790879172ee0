import DecodeWatchStore
import Hummingbird

/// `GET /v1/token`: whose read token the request carries and what it may do (docs/api.md#the-token-itself).
///
/// `decodewatch login` asks it before storing a token, so that a mistyped or revoked token is refused at once rather
/// than by the first command that uses it. Behind ``ReadAccessMiddleware``, which has already refused a missing,
/// unknown or revoked token with 401; on an open collector (no read token exists) any request may do anything.
struct TokenController<Context: AccessRequestContext>: Sendable {
    let verifier: CredentialVerifier

    func addRoutes(to router: some RouterMethods<Context>) {
        router.get("/v1/token") { request, context in
            _ = try FormValues(query: request, accepting: [])
            guard case .token = context.access else { return try Response.json(TokenAnswer.open) }
            guard let secret = request.bearerToken,
                let credential = try await verifier.verify(secret: secret, kind: .read)
            else { throw APIError.invalidReadToken }
            return try Response.json(
                TokenAnswer(id: credential.id, name: credential.name, scope: credential.scope ?? .read))
        }
    }
}

/// The answer of `GET /v1/token`: `{"id": "tok_…", "name": "alice", "scope": "triage"}`, with `null` for the id and
/// name on an open collector.
private struct TokenAnswer: Encodable {
    let id: String?
    let name: String?
    let scope: TokenScope

    /// What an open collector answers: no token is needed, so a request may do anything.
    static let open = TokenAnswer(id: nil, name: nil, scope: .admin)

    /// Writes `null` for a missing id or name, where a synthesized encoding would leave the key out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(scope, forKey: .scope)
    }

    private enum CodingKeys: String, CodingKey { case id, name, scope }
}

import DecodeWatchStore
import Hummingbird

extension CredentialVerifier {
    /// The credential of a kind that a request carries as `Authorization: Bearer`, required once any credential of
    /// that kind exists (docs/api.md#access).
    /// - Parameters:
    ///   - kind: the kind the routes want.
    ///   - request: the request.
    ///   - missing: the refusal of a request that carries no secret.
    ///   - invalid: the refusal of a secret that is unknown, revoked or of another kind.
    /// - Returns: `nil` while no credential of the kind exists: the routes are open to anyone.
    /// - Throws: `missing` or `invalid`, or ``StoreError`` when storage does not answer.
    func requiredCredential(
        _ kind: CredentialKind, of request: Request, missing: APIError, invalid: APIError
    ) async throws -> Credential? {
        guard try await isRequired(kind) else { return nil }
        guard let secret = request.bearerToken else { throw missing }
        guard let credential = try await verify(secret: secret, kind: kind) else { throw invalid }
        return credential
    }
}

import Foundation

/// Dashboard sign-ins (docs/api.md#dashboard): signing in with a read token makes a random session id whose
/// SHA-256 is stored with the token it came from, so that the cookie never holds the token itself, signing out
/// ends the session everywhere, and revoking the token or the session's expiry ends it too.
public protocol SessionStore: Sendable {
    /// Stores a new session, and drops sessions that have expired.
    /// - Parameters:
    ///   - secretHash: the SHA-256 of the session id, from ``CredentialSecret/hash``.
    ///   - credentialID: the read token the viewer signed in with.
    ///   - date: when it was made.
    ///   - expiresAt: when it stops working.
    func insertSession(secretHash: String, credentialID: String, at date: Date, expiresAt: Date) async throws

    /// The read token of a live session, with its scope: one that has not expired at `now` and whose token is not
    /// revoked.
    /// - Returns: `nil` for an unknown, expired or ended session, or a revoked token.
    func sessionCredential(secretHash: String, now: Date) async throws -> Credential?

    /// Ends a session (signing out); ending an unknown one does nothing.
    func deleteSession(secretHash: String) async throws
}

import Foundation

/// Durable storage of ingest keys and read tokens (docs/api.md#access). Secrets are stored only as SHA-256.
///
/// Every collector process sharing a store sees the same credentials, so a key revoked through one
/// process or the CLI stops working on all of them.
public protocol CredentialStore: Sendable {
    /// Stores a new credential.
    /// - Parameters:
    ///   - credential: the record to store.
    ///   - secretHash: the SHA-256 of its secret, from ``CredentialSecret/hash``.
    func insertCredential(_ credential: Credential, secretHash: String) async throws

    /// The credential whose secret has this hash, revoked or not.
    /// - Returns: `nil` when no credential has it.
    func credential(secretHash: String) async throws -> Credential?

    /// Every credential of a kind, oldest first.
    func credentials(kind: CredentialKind) async throws -> [Credential]

    /// Revokes a credential; it is refused from then on. Revoking twice keeps the first time and actor.
    /// - Parameters:
    ///   - actor: who revokes it (docs/api.md#group-actions).
    /// - Throws: ``StoreError`` with code `notFound` when no credential of that kind has the id.
    func revokeCredential(id: String, kind: CredentialKind, at date: Date, by actor: String) async throws

    /// Records that a credential was used.
    func recordCredentialUse(id: String, at date: Date) async throws

    /// Whether any credential of a kind was ever created, revoked ones included: revoking every key
    /// must not reopen the collector to unauthenticated use.
    func hasCredentials(kind: CredentialKind) async throws -> Bool
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Hummingbird

/// Ingest keys and read tokens through the API, for a token with the `admin` scope (docs/api.md#keys-and-tokens):
/// `GET /v1/keys`, `POST /v1/keys`, `DELETE /v1/keys/{id}`, and the same under `/v1/tokens`.
///
/// A collector without read tokens is open for reading and triage, but never for this: whoever reaches it could
/// otherwise make the first admin token and lock its team out. The first admin token is made where the database is.
struct CredentialsController<Context: AccessRequestContext>: Sendable {
    let store: any CredentialStore

    func addRoutes(to router: some RouterMethods<Context>) {
        for kind in CredentialKind.allCases {
            let path = "/v1/\(kind.collection)"
            router.get(RouterPath(path)) { request, context in
                _ = try FormValues(query: request, accepting: [])
                try context.access.requireToken(.admin, for: "Listing \(kind.noun)s")
                return try Response.json(try await store.credentials(kind: kind))
            }
            router.post(RouterPath(path)) { request, context in
                _ = try FormValues(query: request, accepting: [])
                try context.access.requireToken(.admin, for: "Creating \(kind.noun)s")
                var request = request
                let body = try await request.collectBody(upTo: 16_384)
                let draft = try CredentialDraft(json: Data(buffer: body), kind: kind)
                let secret = CredentialSecret(kind: kind)
                let credential = Credential(
                    kind: kind, app: draft.app, name: draft.name, scope: draft.scope, createdAt: Date(),
                    createdBy: context.access.actor)
                try await store.insertCredential(credential, secretHash: secret.hash)
                return try Response.json(
                    CreatedCredential(credential: credential, secret: secret.value), status: .created)
            }
            router.delete(RouterPath("\(path)/:id")) { request, context in
                _ = try FormValues(query: request, accepting: [])
                try context.access.requireToken(.admin, for: "Revoking \(kind.noun)s")
                let id = try context.parameters.require("id")
                try await store.revokeCredential(id: id, kind: kind, at: Date(), by: context.access.actor)
                let revoked = try await store.credentials(kind: kind).first { $0.id == id }
                return try Response.json(revoked)
            }
        }
    }
}

/// The answer to a `POST`: the new credential, and its secret, shown this once.
private struct CreatedCredential: Encodable {
    let credential: Credential
    let secret: String

    enum Keys: String, CodingKey { case secret }

    func encode(to encoder: any Encoder) throws {
        try credential.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(secret, forKey: .secret)
    }
}

import Foundation
import Testing

@testable import DecodeWatchStore

/// What every backend must do with ingest keys and read tokens (docs/api.md#access).
@Suite("CredentialStore conformance")
struct CredentialStoreTests {
    static let created = date("2026-11-21T10:00:00Z")

    static func key(_ id: String, app: String = "com.example.shop", at: Date = created) -> Credential {
        Credential(id: id, kind: .ingest, app: app, name: "ios", createdAt: at)
    }

    @Test("a credential is found by the hash of its secret, and only by it", arguments: StoreBackend.allCases)
    func lookup(backend: StoreBackend) async throws {
        try await backend.withFreshStore { store in
            let secret = CredentialSecret(kind: .ingest)
            try await store.insertCredential(Self.key("key_1"), secretHash: secret.hash)
            #expect(try await store.credential(secretHash: secret.hash) == Self.key("key_1"))
            #expect(try await store.credential(secretHash: CredentialSecret(kind: .ingest).hash) == nil)
            let token = Credential(id: "tok_1", kind: .read, name: "grafana", scope: .read, createdAt: Self.created)
            try await store.insertCredential(token, secretHash: "hash-of-token")
            #expect(try await store.credential(secretHash: "hash-of-token") == token)
        }
    }

    @Test("lists are per kind, oldest first", arguments: StoreBackend.allCases)
    func lists(backend: StoreBackend) async throws {
        try await backend.withFreshStore { store in
            try await store.insertCredential(Self.key("key_b", at: Self.created), secretHash: "b")
            try await store.insertCredential(Self.key("key_a", at: Self.created), secretHash: "a")
            try await store.insertCredential(
                Self.key("key_0", at: Self.created.addingTimeInterval(-60)), secretHash: "0")
            try await store.insertCredential(
                Credential(id: "tok_1", kind: .read, createdAt: Self.created), secretHash: "t")
            #expect(try await store.credentials(kind: .ingest).map(\.id) == ["key_0", "key_a", "key_b"])
            #expect(try await store.credentials(kind: .read).map(\.id) == ["tok_1"])
        }
    }

    @Test(
        "revoking keeps the first time, needs the right kind, and never makes credentials optional again",
        arguments: StoreBackend.allCases)
    func revoke(backend: StoreBackend) async throws {
        try await backend.withFreshStore { store in
            #expect(try await store.hasCredentials(kind: .ingest) == false)
            try await store.insertCredential(Self.key("key_1"), secretHash: "h")
            #expect(try await store.hasCredentials(kind: .ingest))
            #expect(try await store.hasCredentials(kind: .read) == false)
            let first = Self.created.addingTimeInterval(60)
            try await store.revokeCredential(id: "key_1", kind: .ingest, at: first, by: "local:alice")
            try await store.revokeCredential(
                id: "key_1", kind: .ingest, at: first.addingTimeInterval(60), by: "ops")
            // The first revocation's time and actor stay.
            #expect(try await store.credential(secretHash: "h")?.revokedAt == first)
            #expect(try await store.credential(secretHash: "h")?.revokedBy == "local:alice")
            #expect(try await store.hasCredentials(kind: .ingest))
            for (id, kind) in [("key_1", CredentialKind.read), ("key_2", .ingest)] {
                let error = await #expect(throws: StoreError.self) {
                    try await store.revokeCredential(id: id, kind: kind, at: first, by: "local:test")
                }
                #expect(error?.code == .notFound)
            }
        }
    }

    @Test("use is recorded and never goes back in time", arguments: StoreBackend.allCases)
    func recordUse(backend: StoreBackend) async throws {
        try await backend.withFreshStore { store in
            try await store.insertCredential(Self.key("key_1"), secretHash: "h")
            #expect(try await store.credential(secretHash: "h")?.lastUsedAt == nil)
            let later = Self.created.addingTimeInterval(3600)
            try await store.recordCredentialUse(id: "key_1", at: later)
            try await store.recordCredentialUse(id: "key_1", at: Self.created.addingTimeInterval(60))
            #expect(try await store.credential(secretHash: "h")?.lastUsedAt == later)
            // A credential deleted meanwhile is no error.
            try await store.recordCredentialUse(id: "key_gone", at: later)
        }
    }

    @Test(
        "a read token keeps the scope it was made with, reading only unless asked; an ingest key has none",
        arguments: StoreBackend.allCases)
    func scopes(backend: StoreBackend) async throws {
        try await backend.withFreshStore { store in
            let made: [(String, Credential)] = [
                (
                    "default",
                    Credential(kind: .read, app: nil, name: "grafana", createdAt: Self.created, createdBy: nil)
                ),
                (
                    "triage",
                    Credential(
                        kind: .read, app: nil, name: "oncall", scope: .triage, createdAt: Self.created, createdBy: nil)
                ),
                (
                    "admin",
                    Credential(
                        kind: .read, app: nil, name: "ops", scope: .admin, createdAt: Self.created, createdBy: nil)
                ),
                (
                    "key",
                    Credential(
                        kind: .ingest, app: "com.example.shop", name: "ios", scope: .admin, createdAt: Self.created,
                        createdBy: "local:alice")
                ),
            ]
            for (hash, credential) in made { try await store.insertCredential(credential, secretHash: hash) }
            #expect(try await store.credential(secretHash: "default")?.scope == .read)
            #expect(try await store.credential(secretHash: "triage")?.scope == .triage)
            #expect(try await store.credential(secretHash: "admin")?.scope == .admin)
            #expect(try await store.credential(secretHash: "key")?.scope == nil)
            #expect(try await store.credential(secretHash: "key")?.createdBy == "local:alice")
            let listed = try await store.credentials(kind: .read).map(\.scope)
            #expect(Set(listed) == [.read, .triage, .admin])
        }
    }

    @Test(
        "tokens made before scopes keep triage, which let them resolve and mute; keys get no scope; new tokens read",
        arguments: StoreBackend.allCases)
    func migratedTokensKeepTriage(backend: StoreBackend) async throws {
        let rows = [
            """
            INSERT INTO credentials (credential_id, kind, app_id, name, secret_hash, created_at)
            VALUES ('tok_old', 'read', NULL, 'laptop', 'old-token', 1),
                   ('key_old', 'ingest', 'com.example.shop', NULL, 'old-key', 1)
            """
        ]
        try await backend.withDatabase(migratedThrough: "addIngestLogOwner", rows: rows) { fixture in
            #expect(try await fixture.store.credential(secretHash: "old-token")?.scope == .triage)
            #expect(try await fixture.store.credential(secretHash: "old-key")?.scope == nil)
            try await fixture.store.insertCredential(
                Credential(kind: .read, app: nil, name: "new", createdAt: Self.created, createdBy: nil),
                secretHash: "new-token")
            #expect(try await fixture.store.credential(secretHash: "new-token")?.scope == .read)
        }
    }

    @Test("a second credential with the same secret hash is refused", arguments: StoreBackend.allCases)
    func uniqueHashes(backend: StoreBackend) async throws {
        try await backend.withFreshStore { store in
            try await store.insertCredential(Self.key("key_1"), secretHash: "h")
            await #expect(throws: StoreError.self) {
                try await store.insertCredential(Self.key("key_2"), secretHash: "h")
            }
            #expect(try await store.credentials(kind: .ingest).map(\.id) == ["key_1"])
        }
    }
}

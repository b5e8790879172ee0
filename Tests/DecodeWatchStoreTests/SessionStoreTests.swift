import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

@Suite("Dashboard sessions in storage")
struct SessionStoreTests {
    @Test(
        "a session answers its token until it expires, is deleted, or its token is revoked; expired ones are dropped",
        arguments: StoreBackend.allCases)
    func lifecycle(backend: StoreBackend) async throws {
        try await backend.withFreshStore { store in
            let now = Date()
            let token = Credential(
                kind: .read, app: nil, name: "laptop", createdAt: now, createdBy: nil)
            try await store.insertCredential(token, secretHash: CredentialSecret.hash("dwr_secret"))
            let live = CredentialSecret.hash("session-live")
            let old = CredentialSecret.hash("session-old")
            try await store.insertSession(
                secretHash: old, credentialID: token.id, at: now.addingTimeInterval(-7200),
                expiresAt: now.addingTimeInterval(-3600))
            try await store.insertSession(
                secretHash: live, credentialID: token.id, at: now, expiresAt: now.addingTimeInterval(3600))
            #expect(try await store.sessionCredential(secretHash: live, now: now)?.id == token.id)
            #expect(try await store.sessionCredential(secretHash: old, now: now.addingTimeInterval(-5000)) == nil)
            #expect(try await store.sessionCredential(secretHash: live, now: now.addingTimeInterval(3600)) == nil)
            #expect(try await store.sessionCredential(secretHash: CredentialSecret.hash("unknown"), now: now) == nil)

            try await store.revokeCredential(id: token.id, kind: .read, at: now, by: "local:test")
            #expect(try await store.sessionCredential(secretHash: live, now: now) == nil)
            try await store.deleteSession(secretHash: live)
            try await store.deleteSession(secretHash: live)
        }
    }

    @Test(
        "a session knows its token's scope, so the dashboard offers only what the token may do",
        arguments: StoreBackend.allCases)
    func scope(backend: StoreBackend) async throws {
        try await backend.withFreshStore { store in
            let now = Date()
            for scope in TokenScope.allCases {
                let token = Credential(
                    kind: .read, app: nil, name: scope.rawValue, scope: scope, createdAt: now, createdBy: nil)
                try await store.insertCredential(token, secretHash: CredentialSecret.hash(token.id))
                let session = CredentialSecret.hash("session-\(scope)")
                try await store.insertSession(
                    secretHash: session, credentialID: token.id, at: now, expiresAt: now.addingTimeInterval(3600))
                #expect(try await store.sessionCredential(secretHash: session, now: now)?.scope == scope)
            }
        }
    }
}

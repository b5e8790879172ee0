import DecodeWatchStore
import Foundation
import Synchronization

/// Checks bearer secrets against the store, remembering answers for a few seconds.
///
/// The short cache keeps a store read off most requests while a key revoked anywhere (the CLI,
/// another replica) still stops working within ``cacheDuration`` on every process. Use is recorded
/// at most once a minute per credential, off the request path.
final class CredentialVerifier: Sendable {
    /// How long an answer is reused.
    let cacheDuration: TimeInterval
    private let store: any CredentialStore
    private let state = Mutex(State())

    private struct State {
        var secrets: [String: (credential: Credential?, until: Date)] = [:]
        var required: [CredentialKind: (value: Bool, until: Date)] = [:]
        var recorded: [String: Date] = [:]
    }

    /// Answers remembered at most; past it expired ones are dropped, so random secrets cannot grow memory.
    private static let maxCachedSecrets = 10_000
    /// How often the last use of a credential is written.
    static let useRecordInterval: TimeInterval = 60

    init(store: any CredentialStore, cacheDuration: TimeInterval = 2) {
        self.store = store
        self.cacheDuration = cacheDuration
    }

    /// Whether credentials of a kind exist, so requests must carry one.
    /// - Throws: ``StoreError`` when storage does not answer.
    func isRequired(_ kind: CredentialKind, now: Date = Date()) async throws -> Bool {
        if let cached = state.withLock({ $0.required[kind] }), cached.until > now { return cached.value }
        let value = try await store.hasCredentials(kind: kind)
        state.withLock { $0.required[kind] = (value, now.addingTimeInterval(cacheDuration)) }
        return value
    }

    /// The credential a secret belongs to, when it is of the kind asked for and not revoked.
    /// - Returns: `nil` for an unknown, revoked or other-kind secret.
    /// - Throws: ``StoreError`` when storage does not answer.
    func verify(secret: String, kind: CredentialKind, now: Date = Date()) async throws -> Credential? {
        let hash = CredentialSecret.hash(secret)
        let credential: Credential?
        if let cached = state.withLock({ $0.secrets[hash] }), cached.until > now {
            credential = cached.credential
        } else {
            credential = try await store.credential(secretHash: hash)
            state.withLock { state in
                if state.secrets.count >= Self.maxCachedSecrets {
                    state.secrets = state.secrets.filter { $0.value.until > now }
                    if state.secrets.count >= Self.maxCachedSecrets { state.secrets.removeAll() }
                }
                state.secrets[hash] = (credential, now.addingTimeInterval(cacheDuration))
            }
        }
        guard let credential, credential.kind == kind, credential.revokedAt == nil else { return nil }
        recordUse(of: credential, now: now)
        return credential
    }

    private func recordUse(of credential: Credential, now: Date) {
        let due = state.withLock { state in
            if let last = state.recorded[credential.id], now.timeIntervalSince(last) < Self.useRecordInterval {
                return false
            }
            state.recorded[credential.id] = now
            return true
        }
        guard due else { return }
        Task { [store] in try? await store.recordCredentialUse(id: credential.id, at: now) }
    }
}

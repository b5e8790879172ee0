import DecodeWatchCore
import Foundation

/// What a credential lets its holder do (docs/api.md#access).
public enum CredentialKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// An ingest key: sends batches for one app.
    case ingest
    /// A read token: reads the query API and the dashboard, and may do more as its ``TokenScope`` allows.
    case read

    /// The prefix of every secret of this kind, so secret scanners can recognise a leaked one.
    public var secretPrefix: String {
        switch self {
        case .ingest: return "dwk_"
        case .read: return "dwr_"
        }
    }

    /// The collection of this kind in the API (`/v1/keys`, `/v1/tokens`) and the CLI: `keys` or `tokens`.
    public var collection: String { self == .ingest ? "keys" : "tokens" }

    /// What one is called in sentences: `ingest key` or `read token`.
    public var noun: String { self == .ingest ? "ingest key" : "read token" }

    /// The prefix of every id of this kind, so an id is never mistaken for a secret.
    public var idPrefix: String {
        switch self {
        case .ingest: return "key_"
        case .read: return "tok_"
        }
    }
}

/// A stored ingest key or read token. The secret itself is never stored, only its SHA-256.
///
/// Its JSON (`keys list --format json`, `GET /v1/keys`) has every member, `null` when unknown, and RFC 3339 times.
public struct Credential: Sendable, Hashable, Codable {
    /// The public id used to list and revoke it, e.g. `key_3f9a0c1d2e4b5a69`.
    public var id: String
    /// What it allows.
    public var kind: CredentialKind
    /// The app an ingest key sends for; `nil` for read tokens.
    @NullEncoded public var app: String?
    /// A name chosen by the operator, e.g. `ios-production`.
    @NullEncoded public var name: String?
    /// What a read token may do; `nil` for ingest keys.
    @NullEncoded public var scope: TokenScope?
    /// When it was created.
    @RFC3339Coded public var createdAt: Date
    /// Who made it: an admin token's name, or `local:<user>` (docs/api.md#group-actions); `nil` when unknown.
    @NullEncoded public var createdBy: String?
    /// When it was last used, updated at most once a minute.
    @RFC3339CodedOrNull public var lastUsedAt: Date?
    /// When it was revoked; a revoked credential is refused.
    @RFC3339CodedOrNull public var revokedAt: Date?
    /// Who revoked it, like ``createdBy``.
    @NullEncoded public var revokedBy: String?

    enum CodingKeys: String, CodingKey {
        case id, kind, app, name, scope
        case createdAt = "created_at"
        case createdBy = "created_by"
        case lastUsedAt = "last_used_at"
        case revokedAt = "revoked_at"
        case revokedBy = "revoked_by"
    }
}

extension Credential {
    /// A new credential with a fresh id of its kind (``CredentialSecret/makeID(kind:)``), never used nor revoked.
    /// - Parameters:
    ///   - kind: what it allows.
    ///   - app: the app an ingest key sends for; `nil` for read tokens.
    ///   - name: a name chosen by the operator.
    ///   - scope: what a read token may do; ignored for ingest keys. Reading only unless asked for more.
    ///   - createdAt: when it is created.
    ///   - createdBy: who makes it (docs/api.md#group-actions).
    public init(
        kind: CredentialKind, app: String?, name: String?, scope: TokenScope = .read, createdAt: Date,
        createdBy: String?
    ) {
        self.init(
            id: CredentialSecret.makeID(kind: kind), kind: kind, app: app, name: name,
            scope: kind == .read ? scope : nil, createdAt: createdAt, createdBy: createdBy)
    }

    /// The name decisions taken with this credential are recorded under: its name, else its id.
    public var actor: String { name ?? id }
}

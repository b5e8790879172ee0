import Foundation
import GRDB

extension SQLiteReportStore: CredentialStore {
    public func insertCredential(_ credential: Credential, secretHash: String) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO credentials (credential_id, kind, app_id, name, secret_hash, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    credential.id, credential.kind.rawValue, credential.app, credential.name, secretHash,
                    credential.createdAt.milliseconds,
                ])
        }
    }

    public func credential(secretHash: String) async throws -> Credential? {
        try await read { db in
            try Row.fetchOne(db, sql: "\(Self.selectCredential) WHERE secret_hash = ?", arguments: [secretHash])
                .map(Self.credential(from:))
        }
    }

    public func credentials(kind: CredentialKind) async throws -> [Credential] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "\(Self.selectCredential) WHERE kind = ? ORDER BY created_at, credential_id",
                arguments: [kind.rawValue]
            ).map(Self.credential(from:))
        }
    }

    public func revokeCredential(id: String, kind: CredentialKind, at date: Date) async throws {
        let found = try await write { db in
            try db.execute(
                sql: """
                    UPDATE credentials SET revoked_at = COALESCE(revoked_at, ?)
                    WHERE credential_id = ? AND kind = ?
                    """,
                arguments: [date.milliseconds, id, kind.rawValue])
            return db.changesCount
        }
        guard found > 0 else {
            let list = kind == .ingest ? "decodewatch keys list" : "decodewatch tokens list"
            throw StoreError(
                .notFound, "No \(kind == .ingest ? "ingest key" : "read token") has the id '\(id)'; see `\(list)`.")
        }
    }

    public func recordCredentialUse(id: String, at date: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE credentials SET last_used_at = MAX(COALESCE(last_used_at, 0), ?) WHERE credential_id = ?",
                arguments: [date.milliseconds, id])
        }
    }

    public func hasCredentials(kind: CredentialKind) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM credentials WHERE kind = ?)", arguments: [kind.rawValue])
                ?? false
        }
    }

    private static let selectCredential = """
        SELECT credential_id, kind, app_id, name, created_at, last_used_at, revoked_at FROM credentials
        """

    private static func credential(from row: Row) -> Credential {
        Credential(
            id: row["credential_id"], kind: CredentialKind(rawValue: row["kind"]) ?? .read, app: row["app_id"],
            name: row["name"], createdAt: Date(milliseconds: row["created_at"]),
            lastUsedAt: (row["last_used_at"] as Int64?).map(Date.init(milliseconds:)),
            revokedAt: (row["revoked_at"] as Int64?).map(Date.init(milliseconds:)))
    }
}

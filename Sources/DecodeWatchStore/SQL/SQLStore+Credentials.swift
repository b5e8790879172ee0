import Foundation

extension SQLStore {
    public func insertCredential(_ credential: Credential, secretHash: String) async throws {
        let values: [SQLValue] = [
            .text(credential.id), .text(credential.kind.rawValue), SQLValue(credential.app),
            SQLValue(credential.name), SQLValue(credential.scope?.rawValue), .text(secretHash),
            SQLValue(credential.createdAt), SQLValue(credential.createdBy),
        ]
        let statement = dialect.statement(
            """
            INSERT INTO credentials (credential_id, kind, app_id, name, scope, secret_hash, created_at, created_by)
            VALUES (\(bind: values))
            """)
        try await perform(access: .write) { _ = try $0.run(statement) }
    }

    public func credential(secretHash: String) async throws -> Credential? {
        let statement = Credential.select(where: "secret_hash = \(bind: .text(secretHash))", dialect: dialect)
        return try await perform(access: .lookup) { try $0.run(statement).first.map(Credential.init) }
    }

    public func credentials(kind: CredentialKind) async throws -> [Credential] {
        let statement = Credential.select(
            where: "kind = \(bind: .text(kind.rawValue)) ORDER BY created_at, credential_id", dialect: dialect)
        return try await perform(access: .lookup) { try $0.run(statement).map(Credential.init) }
    }

    public func revokeCredential(id: String, kind: CredentialKind, at date: Date, by actor: String) async throws {
        // Both assignments read the row as it was: the first revocation's time and actor stay.
        let statement = dialect.statement(
            """
            UPDATE credentials SET revoked_at = COALESCE(revoked_at, \(bind: SQLValue(date))),
                revoked_by = CASE WHEN revoked_at IS NULL THEN \(bind: .text(actor)) ELSE revoked_by END
            WHERE credential_id = \(bind: .text(id)) AND kind = \(bind: .text(kind.rawValue)) RETURNING credential_id
            """)
        let revoked = try await perform(access: .write) { try $0.run(statement).count }
        guard revoked > 0 else {
            throw StoreError(
                .notFound, "No \(kind.noun) has the id '\(id)'; see `decodewatch \(kind.collection) list`.")
        }
    }

    public func recordCredentialUse(id: String, at date: Date) async throws {
        var sql = SQLBuilder(dialect)
        let usedAt = dialect.greatest("COALESCE(last_used_at, 0)", sql.bind(SQLValue(date)))
        sql.append("UPDATE credentials SET last_used_at = \(usedAt) WHERE credential_id = \(bind: .text(id))")
        let statement = sql.statement()
        try await perform(access: .write) { _ = try $0.run(statement) }
    }

    public func hasCredentials(kind: CredentialKind) async throws -> Bool {
        let statement = dialect.statement(
            "SELECT 1 AS found FROM credentials WHERE kind = \(bind: .text(kind.rawValue)) LIMIT 1")
        return try await perform(access: .lookup) { try !$0.run(statement).isEmpty }
    }
}

extension Credential {
    /// The columns ``init(_:)`` reads, each prefixed (`c.` for a table alias, or nothing).
    static func columns(prefix: String = "") -> String {
        [
            "credential_id", "kind", "app_id", "name", "scope", "created_at", "created_by", "last_used_at",
            "revoked_at", "revoked_by",
        ]
        .map { prefix + $0 }.joined(separator: ", ")
    }

    /// Reads the credentials matching a condition (which may end in `ORDER BY`).
    fileprivate static func select(where condition: SQLFragment, dialect: SQLDialect) -> SQLStatement {
        dialect.statement("SELECT \(columns()) FROM credentials WHERE \(condition)")
    }

    /// A `credentials` row.
    init(_ row: SQLRecord) throws {
        let kind = CredentialKind(rawValue: try row.text("kind")) ?? .read
        // A read token without a scope this version knows (written by an older or newer version sharing the
        // database) may only read: a scope is never guessed upwards.
        let scope = kind == .read ? TokenScope(rawValue: try row.optionalText("scope") ?? "") ?? .read : nil
        self.init(
            id: try row.text("credential_id"), kind: kind, app: try row.optionalText("app_id"),
            name: try row.optionalText("name"), scope: scope, createdAt: try row.date("created_at"),
            createdBy: try row.optionalText("created_by"), lastUsedAt: try row.optionalDate("last_used_at"),
            revokedAt: try row.optionalDate("revoked_at"), revokedBy: try row.optionalText("revoked_by"))
    }
}

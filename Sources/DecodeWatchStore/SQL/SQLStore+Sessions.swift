import Foundation

extension SQLStore {
    public func insertSession(secretHash: String, credentialID: String, at date: Date, expiresAt: Date) async throws {
        let p = dialect.parameter
        let expired = SQLStatement("DELETE FROM dashboard_sessions WHERE expires_at <= \(p(1))", [SQLValue(date)])
        let insert = SQLStatement(
            """
            INSERT INTO dashboard_sessions (session_hash, credential_id, created_at, expires_at)
            VALUES (\(dialect.parameters(from: 1, count: 4)))
            """,
            [.text(secretHash), .text(credentialID), SQLValue(date), SQLValue(expiresAt)])
        try await perform(try .runAll([expired, insert]) { _ in .done(()) }, access: .write)
    }

    public func sessionCredential(secretHash: String, now: Date) async throws -> Credential? {
        let p = dialect.parameter
        let statement = SQLStatement(
            """
            SELECT \(Credential.columns(prefix: "c."))
            FROM dashboard_sessions s JOIN credentials c ON c.credential_id = s.credential_id
            WHERE s.session_hash = \(p(1)) AND s.expires_at > \(p(2)) AND c.revoked_at IS NULL
            """,
            [.text(secretHash), SQLValue(now)])
        return try await perform(.fetch(statement) { try $0.first.map(Credential.init) }, access: .lookup)
    }

    public func deleteSession(secretHash: String) async throws {
        let statement = SQLStatement(
            "DELETE FROM dashboard_sessions WHERE session_hash = \(dialect.parameter(1))", [.text(secretHash)])
        try await perform(.fetch(statement) { _ in }, access: .write)
    }
}

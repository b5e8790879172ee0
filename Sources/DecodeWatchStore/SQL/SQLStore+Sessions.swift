import Foundation

extension SQLStore {
    public func insertSession(secretHash: String, credentialID: String, at date: Date, expiresAt: Date) async throws {
        let expired = dialect.statement("DELETE FROM dashboard_sessions WHERE expires_at <= \(bind: SQLValue(date))")
        let insert = dialect.statement(
            """
            INSERT INTO dashboard_sessions (session_hash, credential_id, created_at, expires_at)
            VALUES (\(bind: [.text(secretHash), .text(credentialID), SQLValue(date), SQLValue(expiresAt)]))
            """)
        try await perform(access: .write) { _ = try $0.run([expired, insert]) }
    }

    public func sessionCredential(secretHash: String, now: Date) async throws -> Credential? {
        let statement = dialect.statement(
            """
            SELECT \(Credential.columns(prefix: "c."))
            FROM dashboard_sessions s JOIN credentials c ON c.credential_id = s.credential_id
            WHERE s.session_hash = \(bind: .text(secretHash)) AND s.expires_at > \(bind: SQLValue(now))
                AND c.revoked_at IS NULL
            """)
        return try await perform(access: .lookup) { try $0.run(statement).first.map(Credential.init) }
    }

    public func deleteSession(secretHash: String) async throws {
        let statement = dialect.statement(
            "DELETE FROM dashboard_sessions WHERE session_hash = \(bind: .text(secretHash))")
        try await perform(access: .write) { _ = try $0.run(statement) }
    }
}

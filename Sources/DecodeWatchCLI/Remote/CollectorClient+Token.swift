import Foundation

extension CollectorClient {
    /// Whose read token this is and what it may do, as the collector sees it (`GET /v1/token`).
    struct TokenIdentity: Decodable, Sendable {
        /// The token's id, `tok_…`; `nil` on an open collector, which needs no token.
        let id: String?
        /// The name it was made with; `nil` on an open collector, or for a token made without one.
        let name: String?
        /// What it may do: `read`, `triage` or `admin` (`admin` on an open collector).
        let scope: String
    }

    /// Asks the collector about the client's token, so that a token is checked before it is stored.
    /// - Throws: ``CollectorError`` when the collector cannot be reached, or refuses the token (unknown or revoked).
    func tokenIdentity() async throws -> TokenIdentity {
        try await get(TokenIdentity.self, "/v1/token")
    }
}

import DecodeWatchStore

/// What a request may do: anything while no read token exists (docs/api.md#access), otherwise what its token's
/// scope allows.
enum RequestAccess: Sendable {
    /// No read token exists: the collector is as open for changes as for reading.
    case open
    /// The request carries a token (or a dashboard session) of this scope.
    case token(TokenScope)

    /// Refuses what the request's token may not do, naming the scope it needs.
    /// - Parameters:
    ///   - scope: the least scope the action needs.
    ///   - activity: the action as the sentence's subject, e.g. "Muting a group".
    /// - Throws: ``APIError`` 403 `insufficient_scope` when the token's scope is below `scope`.
    func require(_ scope: TokenScope, for activity: String) throws(APIError) {
        guard case .token(let held) = self, !held.allows(scope) else { return }
        throw APIError(.forbidden, "insufficient_scope", Self.refusal(scope, held: held, for: activity))
    }

    /// The sentence that refuses an action: what it needs, what the token has, how to get one that may.
    static func refusal(_ needed: TokenScope, held: TokenScope, for activity: String) -> String {
        "\(activity) needs a token with the '\(needed.rawValue)' scope; this token has '\(held.rawValue)'. "
            + "Create one with `decodewatch tokens create --name NAME --scope \(needed.rawValue)`."
    }
}

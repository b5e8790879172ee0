import DecodeWatchStore

/// What a request may do, and who it acts as: anything while no read token exists (docs/api.md#access), otherwise
/// what its token's scope allows.
enum RequestAccess: Sendable {
    /// No read token exists: the collector is as open for changes as for reading.
    case open
    /// The request carries a token (or a dashboard session) of this scope; decisions are recorded under `actor`.
    case token(TokenScope, actor: String)

    /// Who the request's decisions are recorded under (docs/api.md#group-actions).
    var actor: String {
        switch self {
        case .open: return "unauthenticated"
        case .token(_, let actor): return actor
        }
    }

    /// Refuses what the request's token may not do, naming the scope it needs.
    /// - Parameters:
    ///   - scope: the least scope the action needs.
    ///   - activity: the action as the sentence's subject, e.g. "Muting a group".
    /// - Throws: ``APIError`` 403 `insufficient_scope` when the token's scope is below `scope`.
    func require(_ scope: TokenScope, for activity: String) throws(APIError) {
        if let refusal = refusal(scope, for: activity) { throw APIError(.forbidden, "insufficient_scope", refusal) }
    }

    /// Like ``require(_:for:)``, and refuses an open collector too: for what must never be open, such as managing
    /// keys and tokens.
    func requireToken(_ scope: TokenScope, for activity: String) throws(APIError) {
        guard case .token = self else {
            throw APIError(
                .forbidden, "insufficient_scope",
                "\(activity) needs a token with the '\(scope.rawValue)' scope, even while this collector has no read "
                    + "tokens: make the first where the database is, with `decodewatch tokens create --name NAME "
                    + "--scope \(scope.rawValue)`.")
        }
        try require(scope, for: activity)
    }

    /// The sentence refusing an action the request's token may not take, or `nil` when it may.
    func refusal(_ scope: TokenScope, for activity: String) -> String? {
        guard case .token(let held, _) = self, !held.allows(scope) else { return nil }
        return Self.refusal(scope, held: held, for: activity)
    }

    /// The sentence that refuses an action: what it needs, what the token has, how to get one that may.
    static func refusal(_ needed: TokenScope, held: TokenScope, for activity: String) -> String {
        "\(activity) needs a token with the '\(needed.rawValue)' scope; this token has '\(held.rawValue)'. "
            + "Create one with `decodewatch tokens create --name NAME --scope \(needed.rawValue)`."
    }
}

import DecodeWatchStore

extension GroupAction {
    /// The least token scope that may take a decision about a group, through the API or the dashboard: every
    /// decision changes what the team sees, so reading is not enough.
    static let requiredScope = TokenScope.triage

    /// The decision as the subject of a refusal, e.g. "Muting a group".
    var activity: String {
        switch self {
        case .resolve: return "Resolving a group"
        case .resolveInNextVersion: return "Resolving a group in its next version"
        case .mute: return "Muting a group"
        case .unmute: return "Unmuting a group"
        }
    }
}

extension RequestAccess {
    /// Refuses a decision the request's token may not take.
    /// - Throws: ``APIError`` 403 `insufficient_scope`, naming the scope the decision needs.
    func require(_ action: GroupAction) throws(APIError) {
        try require(GroupAction.requiredScope, for: action.activity)
    }
}

import DecodeWatchStore

extension GroupIssueOpener {
    /// The least token scope that may open a group's issue from the dashboard: like a decision, it acts for the team.
    static let requiredScope = TokenScope.triage

    /// Opening an issue as the subject of a refusal.
    static let activity = "Opening a GitHub issue for a group"

    /// Why the dashboard cannot open issues on a collector started without a repository, and how to give it one.
    static let notConfigured =
        "This collector has no GitHub repository to open issues in: start it with --github-repo OWNER/REPO and a "
        + "token (--github-token-file PATH or GITHUB_TOKEN), or use `decodewatch issue create` where the database is."
}

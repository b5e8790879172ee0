extension GroupView {
    /// Shows the "Open a GitHub issue" button only where pressing it can work: the collector has a repository, the
    /// group has no issue yet, and the viewer's access allows it (``GroupIssueOpener/requiredScope``).
    /// - Parameters:
    ///   - access: what the viewer may do.
    ///   - configured: whether the collector was started with a GitHub repository.
    mutating func offerIssue(to access: RequestAccess, configured: Bool) {
        offersIssue =
            configured && issueURL == nil
            && access.refusal(GroupIssueOpener.requiredScope, for: GroupIssueOpener.activity) == nil
    }
}

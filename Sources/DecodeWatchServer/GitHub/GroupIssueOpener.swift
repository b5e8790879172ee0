import DecodeWatchCore
import DecodeWatchStore
import Foundation

/// Opens a group's issue in the backend team's GitHub repository, once (docs/cli.md#issue): what
/// `decodewatch issue create` and the dashboard's button both run.
///
/// The issue's body is the group's backend report over its whole life (``SuggestionWriter/issue(for:since:until:dashboard:)``);
/// its address is stored on the group, so a second request answers it and opens nothing.
public struct GroupIssueOpener: Sendable {
    /// Where the group and its issue are stored.
    public let store: any FieldReads & GroupActionStore & ContractStore
    /// The repository issues are opened in.
    public let github: GitHubIssues
    /// Labels put on every issue.
    public var labels: [String] = []
    /// The dashboard's public address, for a link to the group's page in the issue; `nil` for none.
    public var dashboard: URL?

    /// What a request did.
    public enum Outcome: Sendable, Hashable {
        /// An issue was opened, at this address.
        case opened(String)
        /// The group had an issue already, at this address; none was opened.
        case existing(String)
    }

    /// Creates an opener.
    public init(
        store: any FieldReads & GroupActionStore & ContractStore, github: GitHubIssues, labels: [String] = [],
        dashboard: URL? = nil
    ) {
        self.store = store
        self.github = github
        self.labels = labels
        self.dashboard = dashboard
    }

    /// Opens the group's issue unless it has one.
    /// - Parameters:
    ///   - group: the group's full id.
    ///   - actor: who opens it, for the group's history (docs/api.md#group-actions).
    ///   - now: the end of the report's window, and when it was opened.
    /// - Returns: the issue's address, and whether it was opened now.
    /// - Throws: ``StoreError`` `notFound` for an unknown group or one whose failures retention removed,
    ///   ``GitHubError`` when GitHub refuses.
    public func open(group: String, by actor: String, now: Date = Date()) async throws -> Outcome {
        if let url = try await store.issueURL(group: group) { return .existing(url) }
        guard let stored = try await store.storedGroup(group) else {
            throw StoreError(.notFound, "No group has the id '\(group)'; list groups with `decodewatch fields`.")
        }
        let since = stored.lifecycle.firstSeen
        guard let field = try await store.judgedField(group: group, since: since, until: now) else {
            throw StoreError(
                .notFound,
                "Group \(group) has no failures left in storage (retention removed them), so there is no report to "
                    + "open an issue with.")
        }
        let issue = SuggestionWriter.issue(for: field, since: since, until: now, dashboard: dashboard)
        let opened = try await github.open(title: issue.title, body: issue.body, labels: labels)
        let kept = try await store.recordIssue(group: group, url: opened.htmlURL, at: now, by: actor)
        return kept == opened.htmlURL ? .opened(kept) : .existing(kept)
    }
}

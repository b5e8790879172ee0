import DecodeWatchCore
import Foundation

/// What the collector reads about failing fields: summaries, one group's details, and the values stored batches
/// carried. Every read waits for the batches acknowledged in the database's log before it.
///
/// A digest is built from these reads (``DigestSource``); decisions about groups, alerts, digests' delivery,
/// credentials, contracts and retention are roles of their own.
public protocol FieldReads: DigestSource {
    /// The summary (docs/api.md#breaking-fields) of some groups in `[since, until)`, most failures first: it reads only
    /// those groups' rollup rows, so one group's page costs the same however many groups fail.
    /// - Parameter environment: only this environment's reports, installs and decodes, or every environment's.
    /// - Returns: an entry per group with failures in the window.
    func fields(ofGroups groups: [String], environment: String?, since: Date, until: Date) async throws
        -> [FieldSummary]

    /// One app version's decodes per endpoint and reports per group in `[since, until)`, the numbers a release
    /// check judges (docs/api.md#release-check). Decodes stored before they were kept per version are not counted.
    /// - Parameter environment: only this environment's, or `nil` for every environment's.
    /// - Returns: the counts; empty for an app or version storage does not know.
    func versionCounts(
        app: String, version: String, environment: String?, since: Date, until: Date
    ) async throws -> VersionCounts

    /// Every value that stored batches carried for a filter, sorted: what an answer names when a query asks for a
    /// value never seen (``QueryWarning``).
    /// - Parameters:
    ///   - filter: the filter.
    ///   - app: for versions and endpoints, only this app's; `nil` for every app's.
    func knownValues(of filter: QueryFilter, app: String?) async throws -> [String]

    /// Every group failing in a window as a light entry, and the full summary of the few that `choose` picks,
    /// read in one transaction: a page of a long list costs the same few statements whatever its length.
    /// - Parameters:
    ///   - query: filters and window; `limit` caps the entries.
    ///   - version: only groups that this app version reported in the window.
    ///   - choose: picks the ids to summarize from the entries, in the order to return them.
    func fieldsPage(
        _ query: FieldsQuery, version: String?, choose: @escaping @Sendable ([FieldIndexEntry]) -> [String]
    ) async throws -> (index: [FieldIndexEntry], page: FieldsSummary)

    /// Failures of a group per app version in a window, with the first and last hour each version reported it.
    func versionBreakdown(group: String, since: Date, until: Date) async throws -> [VersionFailures]

    /// Failures of a group per environment in a window, with the first and last report it ever had in each
    /// (docs/wire-format.md#environments): every environment it reported in, those quiet in the window at 0.
    /// - Returns: most failures first, then by name.
    func environmentBreakdown(group: String, since: Date, until: Date) async throws -> [EnvironmentFailures]

    /// The group's kept samples (``SampleHistory/size`` at most), newest first.
    func samples(group: String) async throws -> [GroupSample]

    /// The group's failures per OS version over the UTC days a window touches, most failures first, then by name.
    func osBreakdown(group: String, since: Date, until: Date) async throws -> [OSFailures]

    /// Every environment some group has reported in, sorted by name: what the dashboard offers to filter by.
    func environments() async throws -> [String]

    /// What is stored about one group whatever the window: its key, lifecycle and latest sample.
    /// - Returns: `nil` when no group has that id.
    func storedGroup(_ group: String) async throws -> StoredGroup?

    /// The groups whose id starts with a prefix, so that people can type a few characters of an id.
    /// - Parameters:
    ///   - prefix: the start of an id, compared exactly (ids are lowercase hex).
    ///   - limit: the most groups returned; ask for one more than you show to know that there are more.
    /// - Returns: the matches ordered by id; one when the prefix is unique, none when no id starts with it.
    func groups(withIDPrefix prefix: String, limit: Int) async throws -> [StoredGroup]
}

extension FieldReads {
    /// The summary of some groups in every environment
    /// (``fields(ofGroups:environment:since:until:)``).
    public func fields(ofGroups groups: [String], since: Date, until: Date) async throws -> [FieldSummary] {
        try await fields(ofGroups: groups, environment: nil, since: since, until: until)
    }

    /// Failures per group and hour of every environment (``hourlyCounts(groups:environment:since:until:)``).
    public func hourlyCounts(groups: [String], since: Date, until: Date) async throws -> [String: [Int64: Int]] {
        try await hourlyCounts(groups: groups, environment: nil, since: since, until: until)
    }

    /// The lifecycles of a page of groups, first seen in any environment
    /// (``lifecycles(groups:environment:)``).
    public func lifecycles(groups: [String]) async throws -> [String: GroupLifecycle] {
        try await lifecycles(groups: groups, environment: nil)
    }

    /// Totals of every environment (``digestTotals(app:environment:since:until:)``).
    public func digestTotals(app: String?, since: Date, until: Date) async throws -> DigestWindowTotals {
        try await digestTotals(app: app, environment: nil, since: since, until: until)
    }
}

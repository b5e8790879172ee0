import DecodeWatchCore
import DecodeWatchStore
import Foundation

/// `GET /groups/{group}`: one breaking field in depth: its hourly chart, its versions, its environments, its
/// latest redacted sample, the decisions taken about it and the forms to take more.
///
/// A fixed number of store calls: the stored group, the summary of its endpoint (for count, installs,
/// rate and status), the decisions in force, its versions, its environments, its hourly counts, its history, its
/// issue and its app's contracts;
/// one more, its summary since first seen, when the window holds none of its failures.
struct GroupPage: Sendable {
    let store: any FieldReads & GroupActionStore & ContractStore

    /// The page's view, or `nil` when no group has that id.
    /// - Parameter environment: the list's environment filter the page was reached with, kept in its links back.
    func view(group id: String, window: DashboardWindow, environment: String?, now: Date) async throws -> GroupView? {
        guard let group = try await store.storedGroup(id) else { return nil }
        let since = now.addingTimeInterval(-window.seconds)
        var field = try await store.fields(ofGroups: [id], since: since, until: now).first
        let state = try await store.actionStates(groups: [id], now: now)[id] ?? GroupActionState()
        if let status = field?.status { field?.status = state.status(status) }
        let versions = try await store.versionBreakdown(group: id, since: since, until: now)
        let environments = try await store.environmentBreakdown(group: id, since: since, until: now)
        let hourly = try await store.hourlyCounts(groups: [id], since: since, until: now)[id] ?? [:]
        let history = try await store.statusHistory(group: id)
        let samples = try await store.samples(group: id)
        let os = try await store.osBreakdown(group: id, since: since, until: now)
        let hours = Int(window.seconds / 3600)
        let last = Hour.index(of: now.addingTimeInterval(-1))
        let counts = (0..<hours).map { hourly[last - Int64(hours - 1 - $0)] ?? 0 }
        var view = GroupView(
            group: group, field: field, state: state, window: window, versions: versions,
            environments: environments, chosen: environment, bars: DashboardPage.bars(counts), history: history,
            now: now)
        view.issueURL = try await store.issueURL(group: id)
        let contracts = try await store.contractSet(app: group.app)
        // The verdict and the fix are about the group, not the window: without failures in the window, they rest
        // on all it ever reported.
        var reported = field
        var reportedSince = since
        if field == nil {
            reportedSince = group.lifecycle.firstSeen
            reported = try await store.fields(ofGroups: [id], since: reportedSince, until: now).first
        }
        let failure = DriftJudge.Failure(
            kind: group.kind, expected: reported?.expected, snippet: group.sample.snippet,
            message: group.sample.message)
        let judgement = contracts.judge(
            app: group.app, endpoint: group.endpoint, path: group.path, failure: failure)
        view.offer(samples: samples, os: os, now: now)
        view.drift = judgement.map(DriftView.init)
        reported?.drift = judgement
        view.suggestion = reported.map {
            SuggestionView(SuggestionWriter.suggestion(for: $0, since: reportedSince, until: now))
        }
        return view
    }
}

/// What the group template renders.
struct GroupView: Sendable {
    /// A kept sample, as the samples table shows it.
    struct SampleRow: Sendable {
        let seenAt: DashboardFormat.Time
        let version: String
        let os: String
        let environment: String
        let snippet: String?
    }

    /// An OS version's failures, with its bar's width in percent of the largest.
    struct OSRow: Sendable {
        let os: String
        let count: String
        let width: Int
    }

    var samples: [SampleRow] = []
    var hasSamples = false
    var osRows: [OSRow] = []
    var hasOS = false

    /// Shows the kept samples, newest first, and a bar per OS version.
    mutating func offer(samples kept: [GroupSample], os: [OSFailures], now: Date) {
        samples = kept.map {
            SampleRow(
                seenAt: DashboardFormat.time($0.seenAt, now: now), version: $0.version, os: $0.os,
                environment: $0.environment, snippet: $0.snippet)
        }
        hasSamples = !samples.isEmpty
        let peak = max(1, os.map(\.count).max() ?? 1)
        osRows = os.map {
            OSRow(os: $0.os, count: DashboardFormat.count($0.count), width: max(1, $0.count * 100 / peak))
        }
        hasOS = !osRows.isEmpty
    }

    struct VersionRow: Sendable {
        let version: String
        let count: String
        let share: String
        let firstSeen: DashboardFormat.Time
        let lastSeen: DashboardFormat.Time
    }

    struct EnvironmentRow: Sendable {
        let environment: String
        let count: String
        let firstSeen: DashboardFormat.Time
        let lastSeen: DashboardFormat.Time
        /// Whether the list the page was reached from is filtered to it.
        let chosen: Bool
    }

    struct Event: Sendable {
        let at: DashboardFormat.Time
        let action: String
        let detail: String
        /// Who took the decision, e.g. "by alice"; empty when unknown.
        var actor = ""
    }

    /// The group as stored: its id, app, endpoint, path and latest sample.
    let group: StoredGroup
    let title: String
    let kind: String
    let expected: String
    let count: String
    let installs: String
    let rate: String
    let status: String
    let muted: Bool
    let muteLabel: String
    let nextVersionLabel: String
    let firstSeen: DashboardFormat.Time
    let lastSeen: DashboardFormat.Time
    let windowLabel: String
    let windows: [DashboardPage.Option]
    let bars: [DashboardPage.Bar]
    let chartWidth: Int
    let chartPeak: String
    let chartStart: DashboardFormat.Time
    let versions: [VersionRow]
    let hasVersions: Bool
    let environments: [EnvironmentRow]
    let hasEnvironments: Bool
    /// The list this page was reached from, with its environment filter.
    let listLink: String
    /// The environment filter, kept when the window changes.
    let environment: String?
    let events: [Event]
    let hasEvents: Bool
    let jsonLink: String
    let cliCommand: String
    /// The verdict against the app's contract; `nil` when the app has none.
    var drift: DriftView?
    /// The fix, written; `nil` when the group has no failures left to read it from.
    var suggestion: SuggestionView?
    /// Why the page offers no decisions; `nil` when the viewer may take them, and the forms are shown.
    var decisionNote: String?
    /// The group's issue in the backend's tracker, linked; `nil` when none was opened.
    var issueURL: String?
    /// Whether the page shows the "Open a GitHub issue" button (``offerIssue(to:configured:)``).
    var offersIssue = false
    var page = DashboardPage.Chrome()

    /// Offers the decisions only to a viewer whose access allows them: a form that could only be refused is
    /// left out, with the scope it would need said instead.
    mutating func offerDecisions(to access: RequestAccess) {
        decisionNote = access.refusal(GroupAction.requiredScope, for: "Resolving or muting a group")
    }

    init(
        group: StoredGroup, field: FieldSummary?, state: GroupActionState, window: DashboardWindow,
        versions: [VersionFailures], environments: [EnvironmentFailures], chosen: String?,
        bars: [DashboardPage.Bar], history: [GroupStatusEvent], now: Date
    ) {
        self.group = group
        title = group.path
        kind = group.kind.rawValue
        expected = field?.expected ?? "–"
        count = DashboardFormat.count(field?.count ?? 0)
        installs = DashboardFormat.count(field?.installs ?? 0)
        rate = DashboardFormat.rate(field?.rate)
        let since = now.addingTimeInterval(-window.seconds)
        status = state.status(field?.status ?? group.lifecycle.status(since: since)).rawValue
        muted = state.isMuted
        if state.isMuted {
            muteLabel =
                state.mutedFailuresLeft.map {
                    "muted for \(DashboardFormat.count($0)) more \(Plural.noun("failure", $0))"
                }
                ?? state.mutedUntil.map { "muted until \(RFC3339.string(from: $0))" } ?? "muted"
        } else {
            muteLabel = ""
        }
        nextVersionLabel =
            state.isResolvedInNextVersion
            ? "resolved in the version after \(state.resolvedThroughVersion ?? "(none known)")"
                + (state.newerVersionSeen ? "; a newer version reported it again" : "") : ""
        firstSeen = DashboardFormat.time(group.lifecycle.firstSeen, now: now)
        lastSeen = DashboardFormat.time(group.lastSeen, now: now)
        windowLabel = window.label
        windows = DashboardWindow.allCases.map {
            DashboardPage.Option(value: $0.rawValue, label: $0.label, selected: $0 == window)
        }
        self.bars = bars
        chartWidth = bars.count
        chartPeak = DashboardFormat.count(bars.map(\.count).max() ?? 0)
        chartStart = DashboardFormat.time(since, now: now)
        let total = max(1, versions.reduce(0) { $0 + $1.count })
        self.versions = versions.map {
            VersionRow(
                version: $0.version.isEmpty ? "(none)" : $0.version, count: DashboardFormat.count($0.count),
                share: DashboardFormat.rate(Double($0.count) / Double(total)),
                firstSeen: DashboardFormat.time($0.firstSeen, now: now),
                lastSeen: DashboardFormat.time($0.lastSeen, now: now))
        }
        hasVersions = !versions.isEmpty
        self.environments = environments.map {
            EnvironmentRow(
                environment: $0.environment, count: DashboardFormat.count($0.count),
                firstSeen: DashboardFormat.time($0.firstSeen, now: now),
                lastSeen: DashboardFormat.time($0.lastSeen, now: now), chosen: $0.environment == chosen)
        }
        hasEnvironments = !environments.isEmpty
        listLink = chosen.map { "/?environment=\(DashboardPage.queryEscape($0))" } ?? "/"
        environment = chosen
        var events = history.map {
            Event(
                at: DashboardFormat.time($0.at, now: now), action: $0.action, detail: $0.detail ?? "",
                actor: $0.actor.map { "by \($0)" } ?? "")
        }
        if let regressed = group.lifecycle.regressedAt {
            events.append(
                Event(
                    at: DashboardFormat.time(regressed, now: now), action: "regressed",
                    detail: group.lifecycle.regressedVersion.map { "in \($0)" } ?? ""))
            events.sort { $0.at.absolute < $1.at.absolute }
        }
        self.events = events
        hasEvents = !events.isEmpty
        let filters = [
            "app=\(DashboardPage.queryEscape(group.app))", "endpoint=\(DashboardPage.queryEscape(group.endpoint))",
            "kind=\(group.kind.rawValue)", "since=\(window.rawValue)",
        ]
        jsonLink = "/v1/fields?" + filters.joined(separator: "&")
        cliCommand =
            "decodewatch fields --app '\(group.app)' --endpoint '\(group.endpoint)' --kind \(group.kind.rawValue) "
            + "--since \(window.rawValue) --format json"
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Hummingbird

/// The decisions about a group beyond resolve: `GET /v1/groups/{group}`, and
/// `POST /v1/groups/{group}/resolve-in-next-version`, `…/mute?for=24h` (or `?count=100`), `…/unmute`.
struct GroupActionsController<Context: AccessRequestContext>: Sendable {
    let store: any FieldReads & GroupActionStore

    func addRoutes(to router: some RouterMethods<Context>) {
        router.get("/v1/groups/:group", use: show)
        router.post("/v1/groups/:group/resolve-in-next-version") { request, context in
            try await apply(.resolveInNextVersion, context)
        }
        router.post("/v1/groups/:group/mute") { request, context in
            let values = FormValues(query: request)
            return try await apply(.mute(try GroupMute.parse(period: values["for"], count: values["count"])), context)
        }
        router.post("/v1/groups/:group/unmute") { request, context in try await apply(.unmute, context) }
    }

    /// The decisions in force, the history, the kept samples and the OS breakdown of a group; `since` and `until`
    /// choose the breakdown's window (docs/api.md#windows, default the last 24 hours).
    @Sendable func show(request: Request, context: Context) async throws -> Response {
        let values = try FormValues(query: request, accepting: ["since", "until"])
        let now = Date()
        let window = try FieldsQuery.window(since: values["since"], until: values["until"], now: now)
        let group = try await store.group(namedIn: context)
        return try await answer(group, since: window.since, until: window.until, now: now)
    }

    private func apply(_ action: GroupAction, _ context: Context) async throws -> Response {
        try context.access.require(action)
        let group = try await store.group(namedIn: context)
        let now = Date()
        try await store.apply(action, to: group, at: now, by: context.access.actor)
        return try await answer(group, since: now.addingTimeInterval(-86_400), until: now, now: now)
    }

    /// The group's document: decisions in force, history, kept samples, issue, and its OS breakdown over
    /// `[since, until)`.
    private func answer(_ group: String, since: Date, until: Date, now: Date) async throws -> Response {
        try Response.json(
            GroupActionsAnswer(
                group: group,
                state: try await store.actionStates(groups: [group], now: now)[group] ?? GroupActionState(),
                history: try await store.statusHistory(group: group), samples: try await store.samples(group: group),
                os: try await store.osBreakdown(group: group, since: since, until: until),
                issueURL: try await store.issueURL(group: group)))
    }
}

/// The JSON of `GET /v1/groups/{group}` and of the action endpoints.
struct GroupActionsAnswer: Encodable {
    let group: String
    let state: GroupActionState
    let history: [GroupStatusEvent]
    let samples: [GroupSample]
    let os: [OSFailures]
    /// The address of the group's issue in the backend's tracker (docs/cli.md#issue), or `nil`.
    let issueURL: String?

    enum CodingKeys: String, CodingKey {
        case group, muted, history, samples, os
        case issueURL = "issue_url"
        case mutedUntil = "muted_until"
        case mutedFailuresLeft = "muted_failures_left"
        case resolvedInNextVersion = "resolved_in_next_version"
        case resolvedThroughVersion = "resolved_through_version"
    }

    enum EventKeys: String, CodingKey { case at, action, detail, actor }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(group, forKey: .group)
        try container.encode(state.isMuted, forKey: .muted)
        try container.encode(state.mutedUntil.map(RFC3339.string(from:)), forKey: .mutedUntil)
        try container.encode(state.mutedFailuresLeft, forKey: .mutedFailuresLeft)
        try container.encode(state.isResolvedInNextVersion, forKey: .resolvedInNextVersion)
        try container.encode(state.resolvedThroughVersion, forKey: .resolvedThroughVersion)
        try container.encode(samples, forKey: .samples)
        try container.encode(os, forKey: .os)
        try container.encode(issueURL, forKey: .issueURL)
        var events = container.nestedUnkeyedContainer(forKey: .history)
        for event in history {
            var entry = events.nestedContainer(keyedBy: EventKeys.self)
            try entry.encode(RFC3339.string(from: event.at), forKey: .at)
            try entry.encode(event.action, forKey: .action)
            try entry.encode(event.detail, forKey: .detail)
            try entry.encode(event.actor, forKey: .actor)
        }
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Hummingbird

/// The decisions about a group beyond resolve: `GET /v1/groups/{group}`, and
/// `POST /v1/groups/{group}/resolve-in-next-version`, `…/mute?for=24h` (or `?count=100`), `…/unmute`.
struct GroupActionsController<Context: AccessRequestContext>: Sendable {
    let store: any GroupActionStore

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

    /// The decisions in force and the history of a group.
    @Sendable func show(request: Request, context: Context) async throws -> Response {
        _ = try FormValues(query: request, accepting: [])
        return try await answer(for: try await store.group(namedIn: context))
    }

    private func apply(_ action: GroupAction, _ context: Context) async throws -> Response {
        try context.access.require(action)
        let group = try await store.group(namedIn: context)
        try await store.apply(action, to: group, at: Date(), by: context.access.actor)
        return try await answer(for: group)
    }

    /// The group's decisions in force, its history and its issue, as JSON.
    private func answer(for group: String) async throws -> Response {
        let state = try await store.actionStates(groups: [group], now: Date())[group] ?? GroupActionState()
        return try Response.json(
            GroupActionsAnswer(
                group: group, state: state, history: try await store.statusHistory(group: group),
                issueURL: try await store.issueURL(group: group)))
    }
}

/// The JSON of `GET /v1/groups/{group}` and of the action endpoints.
struct GroupActionsAnswer: Encodable {
    let group: String
    let state: GroupActionState
    let history: [GroupStatusEvent]
    /// The address of the group's issue in the backend's tracker (docs/cli.md#issue), or `nil`.
    let issueURL: String?

    enum CodingKeys: String, CodingKey {
        case group, muted, history
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

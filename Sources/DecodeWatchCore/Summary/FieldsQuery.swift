@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// The filters of the breaking-fields summary (docs/api.md#breaking-fields): `GET /v1/fields` and `decodewatch fields`.
///
/// A report counts when the UTC minute it occurred in lies in `[since, until)`; an edge older than the
/// minutes storage keeps (7 days) widens to the whole UTC hour it falls in.
public struct FieldsQuery: Sendable, Hashable {
    /// Only this app.
    public var app: String?
    /// Only this normalized endpoint.
    public var endpoint: String?
    /// Only this kind.
    public var kind: ReportKind?
    /// Only the reports of this app version, with rates over this version's decodes (docs/api.md#breaking-fields).
    public var version: String?
    /// Only the reports of this environment, with rates over its decodes and first and last seen in it
    /// (docs/api.md#environments); `nil` counts every environment.
    public var environment: String?
    /// Start of the window, inclusive.
    public var since: Date
    /// End of the window, exclusive.
    public var until: Date
    /// Most entries returned.
    public var limit: Int
    /// Only the groups of this status (``GroupStatus``, `muted` included); `nil` for every status.
    public var status: GroupStatus?
    /// Only the groups whose path, endpoint, expected type (in the window), type name or message contains this text,
    /// without regard to case; `nil` for every group.
    public var search: String?

    /// The default number of entries.
    public static let defaultLimit = 50
    /// The largest number of entries one query may ask for.
    public static let maxLimit = 1000
    /// The longest text a search may hold.
    public static let maxSearch = 200

    /// Creates a query.
    public init(
        app: String? = nil, endpoint: String? = nil, kind: ReportKind? = nil, version: String? = nil,
        environment: String? = nil, since: Date, until: Date, limit: Int = FieldsQuery.defaultLimit,
        status: GroupStatus? = nil, search: String? = nil
    ) {
        self.app = app
        self.endpoint = endpoint
        self.kind = kind
        self.version = version
        self.environment = environment
        self.since = since
        self.until = until
        self.limit = limit
        self.status = status
        self.search = search
    }

    /// Builds a query from the textual filters shared by the HTTP API and the CLI.
    ///
    /// - Parameters:
    ///   - since: RFC 3339 time or a duration back from `now` (`90m`, `24h`, `7d`, `2w`); default 24 hours before `until`.
    ///   - until: RFC 3339 time or a duration back from `now`; default `now`.
    ///   - endpoint: normalized here too, so a raw endpoint such as `GET /v2/posts/42` works.
    ///   - version: an app version, as batches send it in `app.version`.
    ///   - environment: an environment name (``EnvironmentName``).
    ///   - status: a ``GroupStatus`` or `all` (the default).
    ///   - search: text to look for (``search``), 1–``maxSearch`` characters; `field` names it in messages.
    /// - Throws: ``QueryError`` naming the filter that is wrong.
    public static func parse(
        app: String?, endpoint: String?, kind: String?, version: String? = nil, environment: String? = nil,
        since: String?, until: String?, limit: String?, status: String? = nil, search: String? = nil,
        searchField: String = "q", now: Date, normalizer: EndpointNormalizer = EndpointNormalizer()
    ) throws(QueryError) -> FieldsQuery {
        let (start, end) = try window(since: since, until: until, now: now)
        let kindValue = try ReportKind.filter(kind, field: "kind")
        let endpointValue = try normalizer.filter(endpoint, field: "endpoint")
        var count = defaultLimit
        if let limit {
            guard let value = Int(limit), (1...maxLimit).contains(value) else {
                throw QueryError("limit '\(limit)' must be a whole number from 1 to \(maxLimit).")
            }
            count = value
        }
        if let app, app.isEmpty { throw QueryError("app must not be empty.") }
        if let version, version.isEmpty { throw QueryError("version must not be empty.") }
        if let search, search.isEmpty || search.count > maxSearch || search.utf8.contains(0) {
            throw QueryError("\(searchField) must be 1–\(maxSearch) characters of text to look for.")
        }
        return FieldsQuery(
            app: app, endpoint: endpointValue, kind: kindValue, version: version,
            environment: try EnvironmentName.filter(environment, field: "environment"), since: start, until: end,
            limit: count, status: try GroupStatus.filter(status, field: "status"), search: search)
    }

    /// Reads a window's edges, as ``parse(app:endpoint:kind:version:environment:since:until:limit:status:now:normalizer:)``
    /// does.
    /// - Parameters:
    ///   - since: RFC 3339 time or a duration back from `now`; default 24 hours before the end.
    ///   - until: RFC 3339 time or a duration back from `now`; default `now`.
    ///   - names: how the caller spells the two filters (`since`, `--since`), for the messages.
    /// - Returns: the window's start and end.
    /// - Throws: ``QueryError`` when an edge cannot be read or the start is not before the end.
    public static func window(
        since: String?, until: String?, now: Date, names: (since: String, until: String) = ("since", "until")
    ) throws(QueryError) -> (since: Date, until: Date) {
        let end =
            try until.map { text throws(QueryError) in try TimeReference.parse(text, now: now, field: names.until) }
            ?? now
        let start =
            try since.map { text throws(QueryError) in try TimeReference.parse(text, now: now, field: names.since) }
            ?? end.addingTimeInterval(-86_400)
        guard start < end else {
            throw QueryError(
                "\(names.since) (\(RFC3339.string(from: start))) must be before \(names.until) (\(RFC3339.string(from: end)))."
            )
        }
        return (start, end)
    }
}

/// A query filter that cannot be used, with a sentence saying why.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One sentence a person can act on.
    public let message: String

    /// Creates a query error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension ReportKind {
    /// Reads a kind filter.
    /// - Parameters:
    ///   - text: the kind's name, or `nil` for no filter.
    ///   - field: the filter as the caller wrote it (`kind`, `--kind`), for the message.
    /// - Returns: the kind, or `nil` for no filter.
    /// - Throws: ``QueryError`` when the name is no kind's.
    static func filter(_ text: String?, field: String) throws(QueryError) -> ReportKind? {
        guard let text else { return nil }
        guard let kind = ReportKind(rawValue: text) else {
            let names = ReportKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw QueryError("\(field) '\(text)' is unknown; use one of \(names).")
        }
        return kind
    }
}

extension EnvironmentName {
    /// Reads an environment filter.
    /// - Parameters:
    ///   - text: the environment's name, or `nil` for no filter.
    ///   - field: the filter as the caller wrote it (`environment`, `--environment`), for the message.
    /// - Returns: the name, or `nil` for no filter.
    /// - Throws: ``QueryError`` when the name breaks the rule batches follow.
    public static func filter(_ text: String?, field: String) throws(QueryError) -> String? {
        guard let text else { return nil }
        guard isValid(text) else {
            throw QueryError("\(field) '\(text.prefix(80))' must be \(rule), e.g. production.")
        }
        return text
    }
}

extension EndpointNormalizer {
    /// Reads an endpoint filter, normalized as reports are, so that `GET /v2/posts/42` finds `GET /v2/posts/{id}`.
    /// - Parameters:
    ///   - text: the endpoint, or `nil` for no filter.
    ///   - field: the filter as the caller wrote it (`endpoint`, `--endpoint`), for the message.
    /// - Returns: the normalized endpoint, or `nil` for no filter.
    /// - Throws: ``QueryError`` when the text is not "METHOD /path".
    func filter(_ text: String?, field: String) throws(QueryError) -> String? {
        guard let text else { return nil }
        guard let endpoint = normalize(text) else {
            throw QueryError("\(field) '\(text)' is not \"METHOD /path\", e.g. \"GET /v2/posts\".")
        }
        return endpoint
    }
}

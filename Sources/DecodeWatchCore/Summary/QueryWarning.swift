/// A filter value that no stored batch ever carried (docs/api.md#warnings): the answer is empty because the
/// question names something never seen, not because nothing broke.
public struct QueryWarning: Codable, Sendable, Hashable {
    /// `unknown_app`, `unknown_version`, `unknown_environment`, `unknown_endpoint` or `unknown_kind`.
    public var code: String
    /// One sentence naming the value and the known ones, nearest first.
    public var message: String

    /// Creates a warning.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The most known values a warning lists.
    public static let knownListed = 10

    /// The warning about a value of a filter that storage has never seen.
    /// - Parameters:
    ///   - filter: the filter.
    ///   - value: the value asked for.
    ///   - known: every value stored batches carried for that filter (of the app asked for, for versions and
    ///     endpoints).
    ///   - app: the app filter, when versions or endpoints were looked up within it.
    public static func unknown(_ filter: QueryFilter, value: String, known: [String], app: String? = nil)
        -> QueryWarning
    {
        let within = app.map { " of app '\($0)'" } ?? ""
        let listed = NearestNames.ordered(known, by: value, limit: knownListed)
        let rest =
            listed.isEmpty
            ? "no \(filter.rawValue) has reported yet."
            : "known \(filter.plural): \(listed.joined(separator: ", "))"
                + (known.count > listed.count ? " (\(known.count - listed.count) more)." : ".")
        return QueryWarning(
            code: "unknown_\(filter.rawValue)",
            message: "no reports from \(filter.rawValue) '\(value)'\(within); \(rest)")
    }
}

/// A filter whose values storage can list, to say which exist when a query names another.
public enum QueryFilter: String, Sendable, Hashable, CaseIterable {
    case app, version, environment, endpoint, kind

    /// The filter's name in the plural, for sentences.
    public var plural: String { rawValue + "s" }
}

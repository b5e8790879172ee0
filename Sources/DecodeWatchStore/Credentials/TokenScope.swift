/// What a read token lets its holder do (docs/api.md#access), from least to most.
///
/// Each scope allows everything the ones before it allow, so a route names the least scope it needs and
/// ``allows(_:)`` answers for every token: a route that manages keys or tokens would need `.admin`, and
/// nothing else changes.
public enum TokenScope: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Reads the query API, the dashboard and `/metrics`: what a monitoring system or a viewer needs.
    case read
    /// Also changes what is known about groups and contracts: resolve, mute, unmute, contract imports.
    case triage
    /// Also manages ingest keys and read tokens.
    case admin

    /// Whether a token of this scope may do what needs `needed`.
    public func allows(_ needed: TokenScope) -> Bool { self >= needed }

    public static func < (lhs: TokenScope, rhs: TokenScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

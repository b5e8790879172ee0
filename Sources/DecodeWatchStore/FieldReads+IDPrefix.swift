extension FieldReads {
    /// The full id of the one group whose id starts with `text` (docs/api.md#group-ids): how people type ids,
    /// in the CLI and in the API's `/v1/groups/{group}` paths alike.
    ///
    /// - Parameter text: a whole id or a start of one, in either case.
    /// - Throws: `StoreError` `.notFound` when no group matches, `.ambiguous` (listing up to 10 of them, with
    ///   endpoint and path) when several do.
    public func groupID(startingWith text: String) async throws -> String {
        let prefix = text.lowercased()
        let listed = 10
        let matches = try await groups(withIDPrefix: prefix, limit: listed + 1)
        if matches.count == 1 { return matches[0].id }
        guard !matches.isEmpty else {
            throw StoreError(
                .notFound,
                "No group has the id '\(prefix)' or an id starting with it; list groups with `decodewatch fields`.")
        }
        let more = matches.count > listed ? " (the first \(listed) shown)" : ""
        let rows = matches.prefix(listed).map { "  \($0.id)  \($0.endpoint)  \($0.path)" }
        throw StoreError(
            .ambiguous,
            "'\(prefix)' matches several groups\(more); give more of the id:\n" + rows.joined(separator: "\n"))
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Hummingbird

extension FieldReads {
    /// The group a request's `:group` names: a whole id or a unique start of at least 6 characters of one
    /// (docs/api.md#group-ids).
    /// - Throws: `QueryError` (400) for a malformed start; `StoreError` `.notFound` (404) or `.ambiguous` (409).
    func group(namedIn context: some RequestContext) async throws -> String {
        let text = try context.parameters.require("group")
        try GroupIDPrefix.check(text)
        return try await groupID(startingWith: text)
    }
}

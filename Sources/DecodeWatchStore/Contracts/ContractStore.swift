import DecodeWatchCore
import Foundation

/// Durable storage of imported OpenAPI contracts, per app, versioned by import time.
///
/// Every import is kept; the latest import of a name is the one drift judges against, so re-importing an
/// updated spec changes every verdict at once and older versions stay listable.
public protocol ContractStore: Sendable {
    /// Stores a new version of a contract.
    /// - Parameters:
    ///   - info: the version's record.
    ///   - spec: its resolved document.
    func insertContract(_ info: ContractInfo, spec: ContractSpec) async throws

    /// Every stored version, by app and name, newest first within a name.
    /// - Parameter app: only this app, when set.
    func contracts(app: String?) async throws -> [ContractInfo]

    /// The latest version of each contract, with its document.
    /// - Parameter app: only this app, when set.
    /// - Throws: ``StoreError`` `unavailable` when a stored document cannot be read.
    func currentContracts(app: String?) async throws -> [CurrentContract]

    /// Removes every version of a contract.
    /// - Returns: how many versions were removed.
    /// - Throws: ``StoreError`` `notFound` when the app has no contract of that name.
    @discardableResult
    func removeContracts(app: String, name: String) async throws -> Int
}

extension ContractStore {
    /// The current contracts as a ``ContractSet``, read once so that a whole list is judged in memory.
    /// - Parameter app: only this app's contracts, when set.
    public func contractSet(app: String?) async throws -> ContractSet {
        ContractSet(try await currentContracts(app: app).map { ($0.info.app, $0.info.name, $0.spec) })
    }
}

extension ContractStore where Self: GroupActionStore & FieldReads {
    /// The breaking-fields summary with decisions applied (``GroupActionStore/decidedFields(_:now:)``), each
    /// field's contract verdict filled in and its fix written: what `GET /v1/fields` and `decodewatch fields` answer.
    public func judgedFields(_ query: FieldsQuery, now: Date) async throws -> FieldsSummary {
        var summary = try await decidedFields(query, now: now).summary
        summary.warnings = try await unknownValueWarnings(query, found: !summary.fields.isEmpty)
        return try await contractSet(app: query.app).annotating(summary).withSuggestions()
    }

    /// One group's entry over a window, judged and with its fix written as in ``judgedFields(_:now:)``: what
    /// `decodewatch suggest` shows.
    /// - Returns: `nil` when the group has no failures in the window.
    public func judgedField(group: String, since: Date, until: Date) async throws -> FieldSummary? {
        guard let field = try await fields(ofGroups: [group], since: since, until: until).first else { return nil }
        let summary = FieldsSummary(since: since, until: until, fields: [field])
        return try await contractSet(app: field.app).annotating(summary).withSuggestions().fields.first
    }
}

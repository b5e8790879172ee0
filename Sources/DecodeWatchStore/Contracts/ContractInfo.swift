import DecodeWatchCore
import Foundation

/// One imported version of a contract, without its document: what `decodewatch contracts list` and
/// `GET /v1/contracts` show.
public struct ContractInfo: Codable, Sendable, Hashable {
    /// The id of this import.
    public var id: String
    /// The app whose contract it is.
    public var app: String
    /// The contract's name, unique per app; a new import under the same name is its next version.
    public var name: String
    /// When it was imported: its version.
    @RFC3339Coded public var importedAt: Date
    /// Who imported it (docs/api.md#group-actions); `nil` when unknown.
    @NullEncoded public var importedBy: String?
    /// The file it was read from, as given.
    @NullEncoded public var source: String?
    /// The OpenAPI version the document declared.
    public var openapi: String
    /// The document's `info.title`.
    public var title: String
    /// The document's `info.version`.
    public var apiVersion: String
    /// How many operations it describes.
    public var operations: Int

    enum CodingKeys: String, CodingKey {
        case id, app, name, source, openapi, title, operations
        case importedAt = "imported_at"
        case importedBy = "imported_by"
        case apiVersion = "api_version"
    }
}

extension ContractInfo {
    /// A record for a new import of a spec.
    /// - Parameter actor: who imports it (docs/api.md#group-actions).
    public init(app: String, name: String, source: String?, spec: ContractSpec, at date: Date, by actor: String?) {
        self.init(
            id: "ctr_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16),
            app: app, name: name, importedAt: date, importedBy: actor, source: source, openapi: spec.openapi,
            title: spec.title, apiVersion: spec.version, operations: spec.operations.count)
    }
}

/// The latest version of a contract and its document.
public struct CurrentContract: Sendable {
    /// The version.
    public var info: ContractInfo
    /// Its resolved document.
    public var spec: ContractSpec
}

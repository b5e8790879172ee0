import DecodeWatchCore
import Foundation

extension SQLStore {
    public func insertContract(_ info: ContractInfo, spec: ContractSpec) async throws {
        let document = String(decoding: try JSONEncoder().encode(spec), as: UTF8.self)
        let statement = SQLStatement(
            """
            INSERT INTO contracts (contract_id, app_id, name, imported_at, source, openapi, title, api_version,
                operations, document, imported_by)
            VALUES (\(dialect.parameters(from: 1, count: 11)))
            """,
            [
                .text(info.id), .text(info.app), .text(info.name), SQLValue(info.importedAt), SQLValue(info.source),
                .text(info.openapi), .text(info.title), .text(info.apiVersion), .integer(Int64(info.operations)),
                .text(document), SQLValue(info.importedBy),
            ])
        try await perform(.fetch(statement) { _ in }, access: .write)
    }

    public func contracts(app: String?) async throws -> [ContractInfo] {
        let statement = ContractInfo.select(
            columns: "", where: app == nil ? "1 = 1" : "app_id = \(dialect.parameter(1))",
            app.map { [SQLValue.text($0)] } ?? [])
        return try await perform(.fetch(statement) { try $0.map(ContractInfo.init) }, access: .read)
    }

    public func currentContracts(app: String?) async throws -> [CurrentContract] {
        let latest = """
            imported_at = (
                SELECT MAX(l.imported_at) FROM contracts l WHERE l.app_id = contracts.app_id AND l.name = contracts.name)
            """
        let statement = ContractInfo.select(
            columns: "", where: app == nil ? latest : "\(latest) AND app_id = \(dialect.parameter(1))",
            app.map { [SQLValue.text($0)] } ?? [])
        let cache = decodedContracts
        let dialect = self.dialect
        // The current versions' records, then the documents of only those this process has not decoded yet.
        let step = SQLStep<[CurrentContract]>.run(statement) { rows in
            let infos = try rows.map(ContractInfo.init)
            let known = cache.specs(infos.map(\.id))
            let missing = infos.filter { known[$0.id] == nil }
            let current = app == nil ? Set(infos.map(\.id)) : nil
            guard !missing.isEmpty else {
                cache.remember([:], current: current)
                return .done(infos.map { CurrentContract(info: $0, spec: known[$0.id]!) })
            }
            let documents = SQLStatement(
                """
                SELECT contract_id, document FROM contracts
                WHERE contract_id IN (\(dialect.parameters(from: 1, count: missing.count)))
                """,
                missing.map { .text($0.id) })
            return .run(documents) { rows in
                var decoded: [String: ContractSpec] = [:]
                for row in rows {
                    decoded[try row.text("contract_id")] = try? JSONDecoder().decode(
                        ContractSpec.self, from: Data(try row.text("document").utf8))
                }
                cache.remember(decoded, current: current)
                return .done(
                    try infos.map { info in
                        guard let spec = known[info.id] ?? decoded[info.id] else {
                            throw StoreError(
                                .unavailable,
                                "The stored contract '\(info.name)' of \(info.app) cannot be read; import it again.")
                        }
                        return CurrentContract(info: info, spec: spec)
                    })
            }
        }
        return try await perform(step, access: .read)
    }

    @discardableResult
    public func removeContracts(app: String, name: String) async throws -> Int {
        let statement = SQLStatement(
            "DELETE FROM contracts WHERE app_id = \(dialect.parameter(1)) AND name = \(dialect.parameter(2)) RETURNING contract_id",
            [.text(app), .text(name)])
        let removed = try await perform(.fetch(statement) { $0.count }, access: .write)
        guard removed > 0 else {
            throw StoreError(
                .notFound, "\(app) has no contract named '\(name)'; see `decodewatch contracts list --app \(app)`.")
        }
        return removed
    }
}

extension ContractInfo {
    /// Reads the contracts matching a condition, by app, name and newest first.
    fileprivate static func select(columns: String, where condition: String, _ arguments: [SQLValue]) -> SQLStatement {
        SQLStatement(
            """
            SELECT contract_id, app_id, name, imported_at, imported_by, source, openapi, title, api_version,
                operations\(columns)
            FROM contracts WHERE \(condition)
            ORDER BY app_id, name, imported_at DESC, contract_id
            """,
            arguments)
    }

    /// A `contracts` row.
    fileprivate init(_ row: SQLRecord) throws {
        self.init(
            id: try row.text("contract_id"), app: try row.text("app_id"), name: try row.text("name"),
            importedAt: try row.date("imported_at"), importedBy: try row.optionalText("imported_by"),
            source: try row.optionalText("source"),
            openapi: try row.text("openapi"), title: try row.text("title"), apiVersion: try row.text("api_version"),
            operations: try row.count("operations"))
    }
}

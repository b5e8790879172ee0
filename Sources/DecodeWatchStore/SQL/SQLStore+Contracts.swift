import DecodeWatchCore
import Foundation

extension SQLStore {
    public func insertContract(_ info: ContractInfo, spec: ContractSpec) async throws {
        let document = String(decoding: try JSONEncoder().encode(spec), as: UTF8.self)
        let values: [SQLValue] = [
            .text(info.id), .text(info.app), .text(info.name), SQLValue(info.importedAt), SQLValue(info.source),
            .text(info.openapi), .text(info.title), .text(info.apiVersion), .integer(Int64(info.operations)),
            .text(document), SQLValue(info.importedBy),
        ]
        let statement = dialect.statement(
            """
            INSERT INTO contracts (contract_id, app_id, name, imported_at, source, openapi, title, api_version,
                operations, document, imported_by)
            VALUES (\(bind: values))
            """)
        try await perform(access: .write) { _ = try $0.run(statement) }
    }

    public func contracts(app: String?) async throws -> [ContractInfo] {
        let statement = ContractInfo.select(
            where: app.map { "app_id = \(bind: .text($0))" } ?? "1 = 1", dialect: dialect)
        return try await perform(access: .read) { try $0.run(statement).map(ContractInfo.init) }
    }

    public func currentContracts(app: String?) async throws -> [CurrentContract] {
        let latest = """
            imported_at = (
                SELECT MAX(l.imported_at) FROM contracts l WHERE l.app_id = contracts.app_id AND l.name = contracts.name)
            """
        let statement = ContractInfo.select(
            where: app.map { "\(latest) AND app_id = \(bind: .text($0))" } ?? "\(latest)", dialect: dialect)
        let cache = decodedContracts
        let dialect = self.dialect
        // The current versions' records, then the documents of only those this process has not decoded yet.
        return try await perform(access: .read) { tx in
            let infos = try tx.run(statement).map(ContractInfo.init)
            let known = cache.specs(infos.map(\.id))
            let missing = infos.filter { known[$0.id] == nil }
            let current = app == nil ? Set(infos.map(\.id)) : nil
            guard !missing.isEmpty else {
                cache.remember([:], current: current)
                return infos.compactMap { info in known[info.id].map { CurrentContract(info: info, spec: $0) } }
            }
            let documents = dialect.statement(
                """
                SELECT contract_id, document FROM contracts
                WHERE contract_id IN (\(bind: missing.map { .text($0.id) }))
                """)
            var decoded: [String: ContractSpec] = [:]
            for row in try tx.run(documents) {
                decoded[try row.text("contract_id")] = try? JSONDecoder().decode(
                    ContractSpec.self, from: Data(try row.text("document").utf8))
            }
            cache.remember(decoded, current: current)
            return try infos.map { info in
                guard let spec = known[info.id] ?? decoded[info.id] else {
                    throw StoreError(
                        .unavailable,
                        "The stored contract '\(info.name)' of \(info.app) cannot be read; import it again.")
                }
                return CurrentContract(info: info, spec: spec)
            }
        }
    }

    @discardableResult
    public func removeContracts(app: String, name: String) async throws -> Int {
        let statement = dialect.statement(
            """
            DELETE FROM contracts WHERE app_id = \(bind: .text(app)) AND name = \(bind: .text(name))
            RETURNING contract_id
            """)
        let removed = try await perform(access: .write) { try $0.run(statement).count }
        guard removed > 0 else {
            throw StoreError(
                .notFound, "\(app) has no contract named '\(name)'; see `decodewatch contracts list --app \(app)`.")
        }
        return removed
    }
}

extension ContractInfo {
    /// Reads the contracts matching a condition, by app, name and newest first.
    fileprivate static func select(where condition: SQLFragment, dialect: SQLDialect) -> SQLStatement {
        dialect.statement(
            """
            SELECT contract_id, app_id, name, imported_at, imported_by, source, openapi, title, api_version,
                operations
            FROM contracts WHERE \(condition)
            ORDER BY app_id, name, imported_at DESC, contract_id
            """)
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

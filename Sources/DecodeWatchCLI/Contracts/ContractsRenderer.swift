import DecodeWatchCore
import DecodeWatchStore
import Foundation

/// Renders `decodewatch contracts list` as a table or JSON.
enum ContractsRenderer {
    static func render(_ contracts: [ContractInfo], as format: CredentialActions.Format) -> String {
        switch format {
        case .json:
            return (try? CommandJSON.render(contracts)) ?? "\n"
        case .table:
            guard !contracts.isEmpty else {
                return "No contracts. Import one with `decodewatch contracts import openapi.yaml --app APP`.\n"
            }
            var rows = [["APP", "NAME", "VERSION (IMPORTED)", "OPENAPI", "OPERATIONS", "TITLE"]]
            var seen = Set<String>()
            for contract in contracts {
                let current = seen.insert(contract.app + "\u{0}" + contract.name).inserted
                rows.append([
                    contract.app, contract.name, RFC3339.string(from: contract.importedAt) + (current ? " *" : ""),
                    contract.openapi, String(contract.operations), "\(contract.title) \(contract.apiVersion)",
                ])
            }
            var lines = TextTable.lines(rows, rightAligned: [4])
            lines.append("* the version drift judges against")
            return lines.joined(separator: "\n") + "\n"
        }
    }
}

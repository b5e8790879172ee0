import DecodeWatchCore
import Foundation

/// Renders a drift report as a table (three lines per group), JSON or CSV, like ``FieldsRenderer``.
enum DriftRenderer {
    static func render(_ report: DriftReport, as format: DecodeWatchCommand.Fields.Format) -> String {
        format.render(report, table: table, csv: csv)
    }

    static func table(_ report: DriftReport) -> String {
        let window = "\(RFC3339.string(from: report.since)) → \(RFC3339.string(from: report.until))"
        guard !report.entries.isEmpty else {
            return """
                No judged fields between \(window).
                Only apps with a contract are judged: see `decodewatch contracts list`.

                """
        }
        var lines = ["Contract drift, \(window)", ""]
        let totals = DriftVerdict.allCases.compactMap { verdict in
            report.totals[verdict.rawValue].flatMap { $0 > 0 ? "\($0) \(verdict.label)" : nil }
        }
        lines.append(totals.joined(separator: ", "))
        for entry in report.entries {
            let rate = entry.rate.map { String(format: "%.1f%%", $0 * 100) } ?? "-"
            lines.append("")
            lines.append(
                "\(entry.verdict.label.uppercased()) (\(entry.verdict.owner))  \(Plural.count(entry.count, "failure")), rate \(rate)  \(GroupIDPrefix.shown(entry.group))"
            )
            lines.append("  \(entry.endpoint)  \(entry.path)  \(entry.kind.rawValue)")
            lines.append("  \(entry.reason)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func csv(_ report: DriftReport) -> String {
        var lines = [
            "group,app,endpoint,path,kind,expected,verdict,reason,contract,operation,location,required,nullable,"
                + "types,format,enum,count,rate,versions"
        ]
        func flag(_ value: Bool?) -> String { value.map { $0 ? "true" : "false" } ?? "" }
        for entry in report.entries {
            let versions = entry.versions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: ";")
            let spec = entry.spec
            let cells = [
                entry.group, entry.app, entry.endpoint, entry.path, entry.kind.rawValue, entry.expected ?? "",
                entry.verdict.rawValue, entry.reason, spec?.contract ?? "", spec?.operation ?? "",
                spec?.location ?? "", flag(spec?.required), flag(spec?.nullable),
                spec?.types?.joined(separator: "|") ?? "", spec?.format ?? "",
                spec?.enumValues?.joined(separator: "|") ?? "", String(entry.count),
                entry.rate.map { String($0) } ?? "", versions,
            ]
            lines.append(cells.map(FieldsRenderer.quote).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

import DecodeWatchCore
import Foundation

/// Renders the breaking-fields summary as an 80-column table, JSON (docs/api.md#breaking-fields) or CSV.
enum FieldsRenderer {
    static func render(_ summary: FieldsSummary, as format: DecodeWatchCommand.Fields.Format) -> String {
        format.render(summary, table: table, csv: csv)
    }

    /// Three lines per group: the id and numbers, then where it breaks, then the kind and details; each cut to
    /// 80 columns.
    static func table(_ summary: FieldsSummary) -> String {
        let window = "\(RFC3339.string(from: summary.since)) → \(RFC3339.string(from: summary.until))"
        guard !summary.fields.isEmpty else { return "No breaking fields between \(window).\n" }
        var lines = ["Breaking fields, \(window)", ""]
        var rows = [["GROUP", "COUNT", "INSTALLS", "RATE", "STATUS"]]
        for field in summary.fields {
            let rate = field.rate.map { String(format: "%.1f%%", $0 * 100) } ?? "-"
            rows.append([
                GroupIDPrefix.shown(field.group), String(field.count), String(field.installs), rate,
                field.status.rawValue,
            ])
        }
        let table = TextTable.lines(rows, rightAligned: [1, 2, 3])
        lines.append(cut(table[0]))
        for (field, row) in zip(summary.fields, table.dropFirst()) {
            lines.append(cut(row))
            lines.append(cut("  \(field.endpoint)  \(field.path)"))
            var details = [field.kind.rawValue]
            if let expected = field.expected { details.append("expected \(expected)") }
            let versions = field.versions.sorted { $0.value == $1.value ? $0.key > $1.key : $0.value > $1.value }
                .map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            if !versions.isEmpty { details.append("versions \(versions)") }
            details.append("since \(RFC3339.string(from: field.firstSeen))")
            if let mute = field.mute { details.append(muteEnd(mute)) }
            lines.append(cut("  " + details.joined(separator: "; ")))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// When a mute ends, for the table.
    private static func muteEnd(_ mute: FieldMute) -> String {
        if let until = mute.until { return "muted until \(RFC3339.string(from: until))" }
        return "muted for \(Plural.count(mute.failuresLeft ?? 0, "more failure", plural: "more failures"))"
    }

    private static func cut(_ line: String) -> String {
        line.count <= 80 ? line : String(line.prefix(79)) + "…"
    }

    static func csv(_ summary: FieldsSummary) -> String {
        var lines = ["group,app,endpoint,path,kind,expected,count,installs,rate,first_seen,last_seen,status,versions,muted_until,muted_failures_left"]
        for field in summary.fields {
            let versions = field.versions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: ";")
            let cells = [
                field.group, field.app, field.endpoint, field.path, field.kind.rawValue, field.expected ?? "",
                String(field.count), String(field.installs), field.rate.map { String($0) } ?? "",
                RFC3339.string(from: field.firstSeen), RFC3339.string(from: field.lastSeen), field.status.rawValue,
                versions, field.mute?.until.map(RFC3339.string(from:)) ?? "",
                field.mute?.failuresLeft.map(String.init) ?? "",
            ]
            lines.append(cells.map(quote).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// RFC 4180 quoting.
    static func quote(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

import DecodeWatchCore
import Foundation
import Mustache

extension FieldListView {
    /// One listed field. The template's names are read from the field when the row is rendered
    /// (``child(named:)``), so a row keeps only what the field does not say.
    struct Row: Sendable {
        /// The field, its status with the decisions in force applied.
        let field: FieldSummary
        /// Whether a mute is in force.
        let muted: Bool
        /// Its sparkline.
        let bars: [DashboardPage.Bar]
        /// Its group page.
        let href: String
        /// The time first and last seen are relative to.
        let now: Date
    }
}

/// Rows are read by name without `Mirror`, which costs more than the queries on a page of 50 rows.
extension FieldListView.Row: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "group": return field.group
        case "href": return href
        case "app": return field.app
        case "endpoint": return field.endpoint
        case "path": return field.path
        case "kind": return field.kind.rawValue
        case "expected": return field.expected ?? "–"
        case "count": return DashboardFormat.count(field.count)
        case "installs": return DashboardFormat.count(field.installs)
        case "rate": return DashboardFormat.rate(field.rate)
        case "bars": return bars
        case "firstSeen": return DashboardFormat.time(field.firstSeen, now: now)
        case "lastSeen": return DashboardFormat.time(field.lastSeen, now: now)
        case "versions": return DashboardFormat.versions(field.versions)
        case "status": return field.status.rawValue
        case "muted": return muted
        // The contract verdict's name, label and reason, when the app has a contract.
        case "verdict": return field.drift?.verdict.rawValue
        case "verdictLabel": return field.drift?.verdict.label ?? ""
        case "verdictReason": return field.drift?.reason ?? ""
        default: return nil
        }
    }
}

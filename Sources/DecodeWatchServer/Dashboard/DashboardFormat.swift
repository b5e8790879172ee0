import DecodeWatchCore
import Foundation
import Mustache

/// How the dashboard writes numbers, rates and times: right-aligned figures with thousands separators,
/// rates as percentages, times relative to now with the absolute RFC 3339 time for `title`/`datetime`.
enum DashboardFormat {
    /// `12345` → `12,345`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// `0.0312` → `3.1%`; `nil` (no decodes reported) → `–`.
    static func rate(_ value: Double?) -> String {
        guard let value else { return "–" }
        let percent = value * 100
        return percent >= 10 || percent == 0
            ? String(format: "%.0f%%", percent) : String(format: percent < 0.1 ? "%.2f%%" : "%.1f%%", percent)
    }

    /// A time as the dashboard shows it.
    struct Time: Sendable {
        /// `5 min ago`, `3 h ago`, `2 d ago`.
        let relative: String
        /// RFC 3339, for `datetime` and the hover title.
        let absolute: String
    }

    /// A time relative to `now`.
    static func time(_ date: Date, now: Date) -> Time {
        let seconds = max(0, now.timeIntervalSince(date))
        let relative: String
        switch seconds {
        case ..<60: relative = "just now"
        case ..<3600: relative = "\(Int(seconds / 60)) min ago"
        case ..<172_800: relative = "\(Int(seconds / 3600)) h ago"
        default: relative = "\(Int(seconds / 86_400)) d ago"
        }
        return Time(relative: relative, absolute: RFC3339.string(from: date))
    }

    /// The three most reported versions, then how many more: `5.2.0, 5.1.0 +2`.
    static func versions(_ counts: [String: Int]) -> String {
        let ordered = counts.sorted { $0.value == $1.value ? $0.key < $1.key : $0.value > $1.value }.map(\.key)
        let shown = ordered.prefix(3).map { $0.isEmpty ? "(none)" : $0 }.joined(separator: ", ")
        return ordered.count > 3 ? "\(shown) +\(ordered.count - 3)" : shown
    }
}

/// Times are read by name without `Mirror`: every row of a list has two.
extension DashboardFormat.Time: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "relative": return relative
        case "absolute": return absolute
        default: return nil
        }
    }
}

import DecodeWatchCore
import Foundation

/// The windows the dashboard offers and how their sparklines are bucketed: hourly bars for a day,
/// daily bars beyond. The widest is 30 days, a daily bar each; the API and the CLI reach as far as retention keeps
/// reports.
enum DashboardWindow: String, CaseIterable, Sendable {
    case day = "24h"
    case week = "7d"
    case fortnight = "14d"
    case month = "30d"

    /// The window's length.
    var seconds: TimeInterval {
        switch self {
        case .day: return 86_400
        case .week: return 7 * 86_400
        case .fortnight: return 14 * 86_400
        case .month: return 30 * 86_400
        }
    }

    /// Hours per sparkline bar.
    var hoursPerBar: Int64 { self == .day ? 1 : 24 }

    /// Bars per sparkline.
    var bars: Int { Int(seconds / 3600) / Int(hoursPerBar) }

    /// What the option says.
    var label: String {
        switch self {
        case .day: return "Last 24 hours"
        case .week: return "Last 7 days"
        case .fortnight: return "Last 14 days"
        case .month: return "Last 30 days"
        }
    }

    /// Counts per bar, oldest first, the last bar ending with the hour containing `until`.
    /// - Parameters:
    ///   - hourly: hour index → count.
    ///   - until: the end of the window.
    func buckets(_ hourly: [Int64: Int], until: Date) -> [Int] {
        let last = Hour.index(of: until.addingTimeInterval(-1))
        var buckets = [Int](repeating: 0, count: bars)
        for (hour, count) in hourly {
            let back = Int((last - hour) / hoursPerBar)
            guard hour <= last, back < bars else { continue }
            buckets[bars - 1 - back] = buckets[bars - 1 - back].addingReportingOverflow(count).partialValue
        }
        return buckets
    }
}

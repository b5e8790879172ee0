import Foundation
import Mustache

/// What every dashboard page shares: the header's state, sparkline bars and link escaping.
enum DashboardPage {
    /// What the layout needs on every page.
    struct Chrome: Sendable {
        /// The CSRF token every form repeats.
        var csrf = ""
        /// Whether a sign-out button is shown (read tokens exist).
        var signedIn = false
    }

    /// One bar of a sparkline or chart.
    struct Bar: Sendable {
        /// Height in percent of the tallest bar; at least 2 for a non-zero count, so it stays visible.
        let height: Int
        /// The count, for the hover title.
        let count: Int
        /// Its position (for SVG charts).
        let x: Int
    }

    /// Bars scaled to the tallest.
    static func bars(_ counts: [Int]) -> [Bar] {
        let top = max(1, counts.max() ?? 1)
        return counts.enumerated().map { index, count in
            let height = count == 0 ? 0 : max(2, Int((Double(count) / Double(top) * 100).rounded()))
            return Bar(height: height, count: count, x: index)
        }
    }

    /// A value escaped for a query string, `+` for spaces as forms send them.
    static func queryEscape(_ value: String) -> String {
        let allowed = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~ ")
        return (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
            .replacingOccurrences(of: " ", with: "+")
    }

    /// One choice of a filter's menu (`<option>`).
    struct Option: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }
}

/// Bars are read by name without `Mirror`: a list page renders more than a thousand of them.
extension DashboardPage.Bar: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "height": return height
        case "count": return count
        // Whether the bar has a height; empty bars are written without style or title, to keep pages small.
        case "visible": return count > 0
        case "x": return x
        // SVG y of the top of the bar, on a 0–100 scale.
        case "y": return 100 - height
        default: return nil
        }
    }
}

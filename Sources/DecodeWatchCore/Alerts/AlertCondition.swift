import Foundation

/// When an alert rule fires for a group (the `--when` of `decodewatch alerts add`).
///
/// Written `new`, `regressed`, `count-above:N` or `rate-above:P`; the written form is what the store keeps
/// and what `alerts list` prints, so ``init(parsing:)`` and ``description`` round-trip.
public enum AlertCondition: Sendable, Hashable, CustomStringConvertible {
    /// The group was first seen inside the rule's window.
    case new
    /// The group was marked resolved and was seen again inside the window.
    case regressed
    /// More than this many failures inside the window.
    case countAbove(Int)
    /// More than this percentage of the endpoint's decodes failed on the field inside the window.
    case rateAbove(percent: Double)

    /// The syntax, for help texts and errors.
    public static let syntax = "new, regressed, count-above:N or rate-above:P"

    /// Parses the written form.
    /// - Throws: ``QueryError`` naming what is wrong: an unknown condition, a count that is not a whole
    ///   number of at least 0, or a percentage outside (0, 100].
    public init(parsing text: String) throws(QueryError) {
        switch text {
        case "new": self = .new
        case "regressed": self = .regressed
        default:
            if let value = text.dropPrefix("count-above:") {
                guard let count = Int(value), count >= 0 else {
                    throw QueryError("--when '\(text)': N in count-above:N must be a whole number, 0 or more.")
                }
                self = .countAbove(count)
            } else if let value = text.dropPrefix("rate-above:") {
                let number = value.hasSuffix("%") ? String(value.dropLast()) : value
                guard let percent = Double(number), percent.isFinite, percent > 0, percent <= 100 else {
                    throw QueryError(
                        "--when '\(text)': P in rate-above:P must be a percentage above 0 and at most 100, e.g. rate-above:5."
                    )
                }
                self = .rateAbove(percent: percent)
            } else {
                throw QueryError("--when '\(text)' is unknown; use \(Self.syntax).")
            }
        }
    }

    public var description: String {
        switch self {
        case .new: return "new"
        case .regressed: return "regressed"
        case .countAbove(let count): return "count-above:\(count)"
        case .rateAbove(let percent): return "rate-above:\(AlertText.number(percent))"
        }
    }

    /// Whether the condition reads breaking rates, which need the decode counts clients report.
    public var needsDecodes: Bool {
        if case .rateAbove = self { return true }
        return false
    }
}

extension String {
    /// The rest after a prefix, or `nil` when the string does not start with it.
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}

import Foundation

/// Decides, in memory, which groups of a window fire a rule; no I/O, so one evaluation of many rules
/// over many groups costs a pass over an array per rule.
public enum AlertMatcher {
    /// Whether a group fires a rule.
    ///
    /// Muted and resolved groups never fire. `new` fires for groups first seen inside the window,
    /// `regressed` for groups seen again inside it after they were resolved; `count-above` and
    /// `rate-above` for any other group above the threshold (a group without decode counts has no rate
    /// and never fires a rate rule).
    public static func fires(_ rule: AlertRule, _ candidate: AlertCandidate) -> Bool {
        guard !candidate.isMuted, candidate.status != .resolved,
            rule.watches(app: candidate.app, endpoint: candidate.endpoint, kind: candidate.kind)
        else { return false }
        switch rule.condition {
        case .new: return candidate.status == .new
        case .regressed: return candidate.status == .regressed
        case .countAbove(let threshold): return candidate.count > threshold
        case .rateAbove(let percent): return (candidate.rate ?? 0) * 100 > percent
        }
    }

    /// The groups of a window that fire a rule, in the order given (most failures first).
    public static func matches(_ rule: AlertRule, in candidates: [AlertCandidate]) -> [AlertCandidate] {
        candidates.filter { fires(rule, $0) }
    }
}

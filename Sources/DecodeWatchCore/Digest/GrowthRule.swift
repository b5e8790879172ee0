/// Decides whether a group is growing, fading or steady between two periods of the same length.
///
/// Ratios alone are noisy on small numbers (1 → 3 is "3×"), so every verdict also needs absolute
/// counts: the defaults say a group is **growing** when `current ≥ 20`, `current − previous ≥ 10`
/// and `current ≥ 2 × previous`, and **fading** when `previous ≥ 20` and `current ≤ previous / 2`
/// (written `2 × current ≤ previous`, so no rounding is involved). Everything else is steady.
public struct GrowthRule: Codable, Sendable, Hashable {
    /// A growing group has at least this many failures in the period.
    public var minimumCount: Int
    /// A growing group has at least this many more failures than in the previous period.
    public var minimumIncrease: Int
    /// Growing: `current ≥ factor × previous`; fading: `factor × current ≤ previous`.
    public var factor: Int
    /// A fading group had at least this many failures in the previous period.
    public var minimumPrevious: Int

    /// The documented default: 20, 10, 2× and 20.
    public static let standard = GrowthRule()

    /// Creates a rule.
    public init(minimumCount: Int = 20, minimumIncrease: Int = 10, factor: Int = 2, minimumPrevious: Int = 20) {
        self.minimumCount = minimumCount
        self.minimumIncrease = minimumIncrease
        self.factor = factor
        self.minimumPrevious = minimumPrevious
    }

    /// The verdict for one group.
    /// - Parameters:
    ///   - current: failures in the period.
    ///   - previous: failures in the period before.
    /// - Returns: ``DigestTrend/growing``, ``DigestTrend/fading`` or ``DigestTrend/steady``.
    public func trend(current: Int, previous: Int) -> DigestTrend {
        if current >= minimumCount, current - previous >= minimumIncrease, current >= factor * previous {
            return .growing
        }
        if previous >= minimumPrevious, factor * current <= previous {
            return .fading
        }
        return .steady
    }

    enum CodingKeys: String, CodingKey {
        case factor
        case minimumCount = "minimum_count"
        case minimumIncrease = "minimum_increase"
        case minimumPrevious = "minimum_previous"
    }
}

/// How a group's count moved from the previous period to this one, by a ``GrowthRule``.
public enum DigestTrend: String, Codable, Sendable, CaseIterable {
    /// Clearly more failures than before.
    case growing
    /// Clearly fewer failures than before.
    case fading
    /// Neither.
    case steady
}

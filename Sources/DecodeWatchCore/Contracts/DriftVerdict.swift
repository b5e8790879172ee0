/// Who owns a breaking field, judged by comparing what the app failed to decode with the contract.
public enum DriftVerdict: String, Codable, Sendable, Hashable, CaseIterable {
    /// The backend sent something its own spec does not allow: the backend team fixes it.
    case backendViolatesSpec = "backend_violates_spec"
    /// The app's model is stricter than the spec: the app team relaxes it (an optional, a new enum case).
    case appStricterThanSpec = "app_stricter_than_spec"
    /// The spec does not describe the operation or the field: somebody completes the spec.
    case notInSpec = "not_in_spec"
    /// The report and the spec together do not settle it; DecodeWatch does not guess.
    case unknown

    /// Who acts on it, in a few words, for tables and the dashboard.
    public var owner: String {
        switch self {
        case .backendViolatesSpec: return "backend team"
        case .appStricterThanSpec: return "app team"
        case .notInSpec: return "spec owner"
        case .unknown: return "undecided"
        }
    }

    /// A short label, such as "backend breaks spec".
    public var label: String {
        switch self {
        case .backendViolatesSpec: return "backend breaks spec"
        case .appStricterThanSpec: return "app stricter than spec"
        case .notInSpec: return "not in spec"
        case .unknown: return "unknown"
        }
    }
}

/// A verdict with its reason in one sentence and the spec's view of the field.
public struct DriftJudgement: Codable, Sendable, Hashable {
    /// The verdict.
    public var verdict: DriftVerdict
    /// Why, in one sentence.
    public var reason: String
    /// What the contract says at the field; `nil` when no operation matched.
    public var spec: SpecView?

    /// Creates a judgement.
    public init(verdict: DriftVerdict, reason: String, spec: SpecView?) {
        self.verdict = verdict
        self.reason = reason
        self.spec = spec
    }
}

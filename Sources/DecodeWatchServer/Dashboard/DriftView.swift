import DecodeWatchCore

/// A group's contract verdict as the group page shows it: who fixes it, why, and what the spec says there.
struct DriftView: Sendable {
    /// The verdict's name, for the badge's class and tests.
    let verdict: String
    /// "backend breaks spec".
    let label: String
    /// "backend team".
    let owner: String
    /// The reason, one sentence.
    let reason: String
    /// What the spec says, e.g. "github · GET /repos/{owner}/{repo}/issues 200 · required · string".
    let spec: String?

    init(_ judgement: DriftJudgement) {
        verdict = judgement.verdict.rawValue
        label = judgement.verdict.label
        owner = judgement.verdict.owner
        reason = judgement.reason
        spec = judgement.spec?.summary
    }
}

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
        spec = judgement.spec.map { view in
            var parts = [view.contract]
            if let operation = view.operation {
                parts.append([operation, view.status].compactMap { $0 }.joined(separator: " "))
            }
            if let location = view.location { parts.append(location) }
            if let required = view.required { parts.append(required ? "required" : "optional") }
            if view.nullable == true { parts.append("nullable") }
            if let types = view.types {
                parts.append(types.joined(separator: " or ") + (view.format.map { " (\($0))" } ?? ""))
            }
            if let values = view.enumValues { parts.append("enum " + values.joined(separator: ", ")) }
            return parts.joined(separator: " · ")
        }
    }
}

/// The current contracts of every app, ready to judge groups in memory.
///
/// Built once per request or command from the stored contracts, so judging a list of groups costs no
/// query per group. An app's contracts are tried by name: the first that describes the group's
/// operation decides; when none does, the field is not in any spec.
public struct ContractSet: Sendable {
    private let mappers: [String: [ContractMapper]]

    /// Creates a set.
    /// - Parameter contracts: each app's current contracts, by app id.
    public init(_ contracts: [(app: String, name: String, spec: ContractSpec)]) {
        var mappers: [String: [ContractMapper]] = [:]
        for contract in contracts {
            mappers[contract.app, default: []].append(ContractMapper(name: contract.name, spec: contract.spec))
        }
        self.mappers = mappers.mapValues { $0.sorted { $0.name < $1.name } }
    }

    /// Whether no app has a contract.
    public var isEmpty: Bool { mappers.isEmpty }

    /// Whether an app has a contract.
    public func covers(app: String) -> Bool { mappers[app] != nil }

    /// Judges one group.
    /// - Parameters:
    ///   - app: the group's app.
    ///   - endpoint: its normalized endpoint.
    ///   - path: its rendered path.
    ///   - failure: what its reports say.
    /// - Returns: the verdict, or `nil` when the app has no contract.
    public func judge(app: String, endpoint: String, path: String, failure: DriftJudge.Failure) -> DriftJudgement? {
        guard let mappers = mappers[app], let first = mappers.first else { return nil }
        for mapper in mappers {
            let mapping = mapper.map(endpoint: endpoint, path: path)
            if mapping.outcome != .noOperation {
                return DriftJudge.judge(failure, path: path, endpoint: endpoint, mapping: mapping)
            }
        }
        guard mappers.count > 1 else {
            return DriftJudge.judge(
                failure, path: path, endpoint: endpoint,
                mapping: ContractMapping(view: SpecView(contract: first.name), outcome: .noOperation))
        }
        let names = mappers.map { "'\($0.name)'" }.joined(separator: ", ")
        return DriftJudgement(
            verdict: .notInSpec, reason: "None of the specs \(names) describes an operation for \(endpoint).", spec: nil
        )
    }

    /// Judges one entry of the breaking-fields summary from its sample.
    /// - Returns: the verdict, or `nil` when the app has no contract.
    public func judge(_ field: FieldSummary) -> DriftJudgement? {
        judge(
            app: field.app, endpoint: field.endpoint, path: field.path,
            failure: DriftJudge.Failure(
                kind: field.kind, expected: field.expected, snippet: field.sample.snippet,
                message: field.sample.message))
    }

    /// The summary with each field's verdict filled in (docs/api.md#contract-drift, `fields[].drift`); fields of apps
    /// without a contract keep none.
    public func annotating(_ summary: FieldsSummary) -> FieldsSummary {
        guard !isEmpty else { return summary }
        var annotated = summary
        for index in annotated.fields.indices {
            annotated.fields[index].drift = judge(annotated.fields[index])
        }
        return annotated
    }
}

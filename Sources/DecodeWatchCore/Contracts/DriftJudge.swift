@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Decides who owns a breaking field from its kind, what the app expected, and what the contract says.
///
/// The rules (docs/triage.md, "Contract drift"): a failure the spec forbids is the backend's (a required key
/// missing, `null` where the spec does not allow it, another type than the spec's when the app expected
/// the spec's type, a value outside the spec's enum); a failure the spec allows is the app's (an optional
/// or nullable key, a type the spec never promised, an enum value the spec lists); a field the spec does not
/// describe is the spec's; anything the report cannot settle (`dataCorrupted` without an enum value,
/// `other`, an app type name that says no JSON type, a value the report does not carry) is `unknown`.
public enum DriftJudge {
    /// What one group's report says: enough to judge it.
    public struct Failure: Sendable, Hashable {
        /// The failure kind.
        public var kind: ReportKind
        /// The app's expected type name, such as `String` or `IssueState`.
        public var expected: String?
        /// The latest report's redacted snippet (JSON text of the value).
        public var snippet: String?
        /// The latest report's message.
        public var message: String?

        /// Creates a failure.
        public init(kind: ReportKind, expected: String?, snippet: String? = nil, message: String? = nil) {
            self.kind = kind
            self.expected = expected
            self.snippet = snippet
            self.message = message
        }
    }

    /// Judges one group against one mapping.
    /// - Parameters:
    ///   - failure: what the group's reports say.
    ///   - path: the group's rendered path, for the reason.
    ///   - endpoint: the group's endpoint, for the reason.
    ///   - mapping: what ``ContractMapper/map(endpoint:path:)`` found.
    /// - Returns: the verdict and its reason.
    public static func judge(
        _ failure: Failure, path: String, endpoint: String, mapping: ContractMapping
    ) -> DriftJudgement {
        let view = mapping.view
        func verdict(_ verdict: DriftVerdict, _ reason: String) -> DriftJudgement {
            DriftJudgement(verdict: verdict, reason: reason, spec: view)
        }
        let contract = "'\(view.contract)'"
        switch mapping.outcome {
        case .noOperation:
            return DriftJudgement(
                verdict: .notInSpec, reason: "The spec \(contract) describes no operation for \(endpoint).",
                spec: view)
        case .noResponseBody:
            return verdict(
                .notInSpec,
                "The spec \(contract) describes no successful JSON response for \(view.operation ?? endpoint).")
        case .unreadablePath:
            return verdict(.unknown, "The path \(path) cannot be read as a field path.")
        case .freeForm(let parent):
            return verdict(
                .notInSpec, "The spec \(contract) leaves \(parent) free-form, so it does not describe \(path).")
        case .fieldMissing(let step, let parent):
            let what: String
            switch step {
            case .key(let key): what = "the key '\(key)'"
            case .wildcard: what = "elements or map values"
            }
            return verdict(.notInSpec, "The spec \(contract) describes no \(what) under \(parent).")
        case .described:
            return judgeDescribed(failure, path: path, view: view)
        }
    }

    private static func judgeDescribed(_ failure: Failure, path: String, view: SpecView) -> DriftJudgement {
        func verdict(_ verdict: DriftVerdict, _ reason: String) -> DriftJudgement {
            DriftJudgement(verdict: verdict, reason: reason, spec: view)
        }
        switch failure.kind {
        case .keyNotFound:
            switch view.required {
            case true?:
                return verdict(
                    .backendViolatesSpec, "The spec requires \(path) but responses left it out.")
            case false?:
                return verdict(
                    .appStricterThanSpec, "The spec marks \(path) optional but the app requires it.")
            case nil:
                return verdict(.unknown, "\(path) is not an object key, so the spec cannot say whether it is required.")
            }
        case .valueNotFound:
            if view.nullable == true {
                return verdict(.appStricterThanSpec, "The spec allows null at \(path) but the app requires a value.")
            }
            let optional =
                view.required == false ? "allows leaving out \(path) but not null" : "does not allow null at \(path)"
            return verdict(.backendViolatesSpec, "The spec \(optional), and responses sent null.")
        case .typeMismatch:
            return judgeType(failure, path: path, view: view)
        case .unknownValue, .dataCorrupted:
            return judgeValue(failure, path: path, view: view)
        case .other:
            return verdict(.unknown, "A failure of kind 'other' says nothing the spec can settle.")
        }
    }

    private static func judgeType(_ failure: Failure, path: String, view: SpecView) -> DriftJudgement {
        func verdict(_ verdict: DriftVerdict, _ reason: String) -> DriftJudgement {
            DriftJudgement(verdict: verdict, reason: reason, spec: view)
        }
        guard let expected = failure.expected, let wanted = ExpectedJSONType.of(expected) else {
            let name = failure.expected.map { "'\($0)'" } ?? "an unnamed type"
            return verdict(.unknown, "The app expected \(name), which does not say which JSON type it reads.")
        }
        guard let types = view.types, !types.isEmpty else {
            return verdict(
                .appStricterThanSpec,
                "The spec allows any type at \(path) but the app requires \(wanted) (\(expected)).")
        }
        let promised = types.joined(separator: " or ")
        if types.contains(wanted) || (wanted == "number" && types.contains("integer")) {
            return verdict(
                .backendViolatesSpec,
                "The spec promises \(promised) at \(path), as the app expects, but responses sent another type.")
        }
        return verdict(
            .appStricterThanSpec,
            "The spec promises \(promised) at \(path) but the app expects \(wanted) (\(expected)).")
    }

    private static func judgeValue(_ failure: Failure, path: String, view: SpecView) -> DriftJudgement {
        func verdict(_ verdict: DriftVerdict, _ reason: String) -> DriftJudgement {
            DriftJudgement(verdict: verdict, reason: reason, spec: view)
        }
        // The sample is read as the suggestion reads it: the value itself, or the field's key in the object around it.
        let value =
            failure.kind == .unknownValue
            ? SampledValue(snippet: failure.snippet, path: path, kind: failure.kind, message: failure.message).scalar
            : InvalidRawValue(message: failure.message)?.value
        guard let value else {
            if failure.kind == .dataCorrupted {
                return verdict(
                    .unknown,
                    "The value at \(path) could not be used; the report does not show that the spec forbids it.")
            }
            if view.enumValues == nil {
                return verdict(
                    .appStricterThanSpec,
                    "The spec lists no fixed values at \(path) but the app accepts only its own cases.")
            }
            return verdict(
                .unknown,
                "The report does not carry the value at \(path), so it cannot be checked against the spec's enum.")
        }
        guard let allowed = view.enumValues else {
            return verdict(
                .appStricterThanSpec,
                "The spec lists no fixed values at \(path), so '\(value)' is allowed, but the app does not know it.")
        }
        if allowed.contains(value) {
            return verdict(.appStricterThanSpec, "The spec lists '\(value)' at \(path) but the app does not know it.")
        }
        return verdict(
            .backendViolatesSpec, "Responses sent '\(value)' at \(path), which the spec's enum does not list.")
    }
}

/// The fix for one breaking field, written out (docs/api.md#suggested-fixes): the smallest change to the app's model
/// that keeps it decoding with the DecodeWatch SDK, and, when the backend breaks its own spec, a report for the
/// backend team.
public struct Suggestion: Codable, Sendable, Hashable {
    /// What happened and what to change, in one sentence.
    public var summary: String
    /// Which change the Swift code makes, for programs that sort or count suggestions.
    public var remedy: SuggestionRemedy
    /// The JSON type of the value the sample shows at the field.
    public var received: SampledJSONType
    /// The Swift change, ready to paste over the property (or the decoder's set-up, for dates); `nil` when no
    /// property of the app can be changed (the whole response failed).
    @NullEncoded public var swift: String?
    /// A Markdown report for the backend team's issue tracker; only when the verdict is `backend_violates_spec`.
    @NullEncoded public var backendReport: String?

    enum CodingKeys: String, CodingKey {
        case summary, remedy, received, swift
        case backendReport = "backend_report"
    }
}

/// The change a ``Suggestion`` makes to the app's model.
public enum SuggestionRemedy: String, Codable, Sendable, Hashable, CaseIterable {
    /// `Either<Expected, Received>`: accept the type the backend sends as well as the expected one.
    case either
    /// A plain optional, `T?`: the spec allows the key to be absent or `null`, so absence is no failure.
    case optional
    /// `Maybe<T>`: keep decoding without the value, keep the error for the screen, keep reporting it.
    case maybe
    /// `@Safe var x: T?`: the value becomes `nil` when it cannot be decoded, and the failure is still reported.
    case safe
    /// A `SafeEnum` with an `unknown` case, and the new case when the spec lists it.
    case safeEnum = "safe_enum"
    /// `@SafeArray`: keep the elements that decode, drop and report the others.
    case safeArray = "safe_array"
    /// A date decoding strategy for the format the sample shows.
    case dateStrategy = "date_strategy"
    /// A number type wide enough for the value sent (`Double` for a fraction, `Int64` for a large integer).
    case widerNumber = "wider_number"
    /// No change to a property: the whole response failed to decode.
    case none
}

/// The JSON type of a sampled value, read from a report's redacted snippet.
public enum SampledJSONType: String, Codable, Sendable, Hashable, CaseIterable {
    /// `null`.
    case null
    /// `true` or `false`.
    case boolean
    /// A number.
    case number
    /// A string.
    case string
    /// An array.
    case array
    /// An object.
    case object
    /// No value: the key was missing, or the report carried no snippet that shows it.
    case absent
}

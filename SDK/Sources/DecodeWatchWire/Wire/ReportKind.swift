/// What went wrong while decoding one value (docs/wire-format.md#report-kinds, `reports[].kind`).
public enum ReportKind: String, Codable, Sendable, CaseIterable, Hashable {
    /// A required key was absent.
    case keyNotFound
    /// A key was present but its value was `null` where a value was required.
    case valueNotFound
    /// The value had another JSON type than the one expected.
    case typeMismatch
    /// The value had the right type but could not be used (a bad URL, an empty id, a bad date).
    case dataCorrupted
    /// A value the app does not know yet, such as a new enum case.
    case unknownValue
    /// Any other failure, such as a number that does not fit the expected integer type.
    case other
}

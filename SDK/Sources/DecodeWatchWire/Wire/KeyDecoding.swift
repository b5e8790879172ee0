/// How the app's decoder turned the payload's keys into its Swift names (docs/wire-format.md#key-decoding,
/// `reports[].key_decoding`), so that a suggested fix names the property as the app spells it.
///
/// The report's `path` always spells keys as the payload did; this says how to get from there to the app's
/// property: `avatar_url` is the property `avatarUrl` under ``convertFromSnakeCase``.
public enum KeyDecoding: String, Codable, Sendable, CaseIterable, Hashable {
    /// `JSONDecoder.KeyDecodingStrategy.useDefaultKeys`: properties are named after the keys, or renamed in
    /// `CodingKeys`.
    case useDefaultKeys = "use_default_keys"
    /// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`: `avatar_url` is decoded as `avatarUrl`.
    case convertFromSnakeCase = "convert_from_snake_case"
    /// A custom strategy: the path's keys are the ones that strategy produced.
    case custom
}

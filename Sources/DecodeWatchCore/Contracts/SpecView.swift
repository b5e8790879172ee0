/// What a contract says at one field: where it is described and what it promises there.
///
/// Each promise is `nil` when the spec does not settle it (alternatives of a `oneOf` disagree, or the
/// field is not described); the verdict then never rests on it.
public struct SpecView: Codable, Sendable, Hashable {
    /// The contract's name.
    public var contract: String
    /// The operation the endpoint matched, as the spec writes it (`GET /repos/{owner}/{repo}/issues`).
    public var operation: String?
    /// The response status whose schema was used (`200`).
    public var status: String?
    /// A JSON pointer to the schema node of the field, such as `#/components/schemas/issue/properties/title`.
    public var location: String?
    /// Whether the field's key is required in its object; `nil` for array elements, map values and the root.
    public var required: Bool?
    /// Whether `null` is allowed.
    public var nullable: Bool?
    /// The JSON types allowed; `nil` when any type is.
    public var types: [String]?
    /// The format, such as `date-time`.
    public var format: String?
    /// The values the spec lists, when it lists them.
    public var enumValues: [String]?

    enum CodingKeys: String, CodingKey {
        case contract, operation, status, location, required, nullable, types, format
        case enumValues = "enum"
    }
}

extension SpecView {
    /// What the spec promises at the field, such as "required · string (date-time)"; empty when it settles nothing.
    public var promises: String {
        var parts: [String] = []
        if let required { parts.append(required ? "required" : "optional") }
        if nullable == true { parts.append("nullable") }
        if let types { parts.append(types.joined(separator: " or ") + (format.map { " (\($0))" } ?? "")) }
        if let enumValues { parts.append("enum " + enumValues.joined(separator: ", ")) }
        return parts.joined(separator: " · ")
    }

    /// The whole view in one line, such as "github · GET /repos/{owner}/{repo}/issues 200 · #/… · required · string".
    public var summary: String {
        var parts = [contract]
        if let operation { parts.append([operation, status].compactMap { $0 }.joined(separator: " ")) }
        if let location { parts.append(location) }
        if !promises.isEmpty { parts.append(promises) }
        return parts.joined(separator: " · ")
    }
}

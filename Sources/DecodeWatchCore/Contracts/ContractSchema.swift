/// One schema of an imported contract, in the resolved, version-neutral form DecodeWatch stores.
///
/// OpenAPI 3.0 and 3.1 say the same things in different words (`nullable: true` or `type: [.., "null"]`);
/// the importer writes both as this one shape, so mapping and verdicts never look at the OpenAPI version.
/// References stay references (``ref`` names a schema of ``ContractSpec/schemas``) so recursive schemas
/// such as a comment holding comments stay finite; ``ContractMapper`` follows them only as far as a path goes.
public final class ContractSchema: Codable, Sendable {
    /// The name of the shared schema this one stands for; when set, the other fields are empty.
    public let ref: String?
    /// The JSON types allowed (`string`, `integer`, `number`, `boolean`, `object`, `array`); `nil` for any.
    public let types: [String]?
    /// The format, such as `date-time` or `uri`.
    public let format: String?
    /// Whether `null` is allowed (3.0 `nullable`, or `"null"` among 3.1 types).
    public let nullable: Bool?
    /// The values allowed, as written: strings as they are, other values as JSON text.
    public let enumValues: [String]?
    /// The properties described, by name.
    public let properties: [String: ContractSchema]?
    /// The names of the required properties.
    public let required: [String]?
    /// The schema of the values of a map (`additionalProperties` given as a schema).
    public let additionalProperties: ContractSchema?
    /// The schema of an array's elements.
    public let items: ContractSchema?
    /// Schemas a value must match all of.
    public let allOf: [ContractSchema]?
    /// Schemas a value matches one or any of (`oneOf` and `anyOf`; the difference does not change what a path means).
    public let anyOf: [ContractSchema]?

    /// Creates a schema.
    public init(
        ref: String? = nil, types: [String]? = nil, format: String? = nil, nullable: Bool? = nil,
        enumValues: [String]? = nil, properties: [String: ContractSchema]? = nil, required: [String]? = nil,
        additionalProperties: ContractSchema? = nil, items: ContractSchema? = nil, allOf: [ContractSchema]? = nil,
        anyOf: [ContractSchema]? = nil
    ) {
        self.ref = ref
        self.types = types
        self.format = format
        self.nullable = nullable
        self.enumValues = enumValues
        self.properties = properties
        self.required = required
        self.additionalProperties = additionalProperties
        self.items = items
        self.allOf = allOf
        self.anyOf = anyOf
    }

    /// A reference to a shared schema.
    public static func reference(_ name: String) -> ContractSchema { ContractSchema(ref: name) }

    enum CodingKeys: String, CodingKey {
        case ref = "$ref"
        case types = "type"
        case format, nullable
        case enumValues = "enum"
        case properties, required, additionalProperties, items, allOf, anyOf
    }
}

/// The JSON type a Swift type decodes from, read from a report's `expected` type name.
enum ExpectedJSONType {
    /// The JSON type of a Swift type name such as `String`, `Int64`, `Array<Any>` or `Dictionary<String, Any>`.
    /// - Returns: `string`, `integer`, `number`, `boolean`, `array` or `object`; `nil` for a name it cannot place
    ///   (the app's own types decode from whatever their `init(from:)` reads).
    static func of(_ name: String) -> String? {
        let name = name.hasPrefix("Swift.") ? String(name.dropFirst(6)) : name
        switch name {
        case "String", "Substring", "Character", "URL", "UUID", "Date":
            return "string"
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64":
            return "integer"
        case "Double", "Float", "Float32", "Float64", "Decimal", "CGFloat":
            return "number"
        case "Bool":
            return "boolean"
        default:
            if name.hasPrefix("Array<") || (name.hasPrefix("[") && !name.contains(":")) { return "array" }
            if name.hasPrefix("Dictionary<") || (name.hasPrefix("[") && name.contains(":")) { return "object" }
            return nil
        }
    }
}

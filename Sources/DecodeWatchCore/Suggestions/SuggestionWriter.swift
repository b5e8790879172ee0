import Foundation

/// Writes the fix for a breaking field (docs/api.md#suggested-fixes) from its kind, its expected type, the JSON type
/// of its sampled value and its contract verdict.
///
/// The app's change is the smallest one that keeps the model decoding with the SDK's own wrappers, in this order: an
/// enum value the app does not know makes the enum a `SafeEnum`; a date in another format gets the decoder's strategy
/// for the format the sample shows; a number too wide for its type gets a wider one; a scalar of another type is
/// accepted with `Either`; a bad array element is dropped with `@SafeArray`; a missing key or `null` makes the
/// property optional when the spec allows it and `Maybe` otherwise; anything else is wrapped in `@Safe`. The backend
/// team gets a report only when the verdict is that the backend breaks its own spec.
public enum SuggestionWriter {
    /// Writes one field's suggestion.
    /// - Parameters:
    ///   - field: a breaking field, with its verdict in `drift` when its app has a contract.
    ///   - since: the start of the window its numbers cover.
    ///   - until: the end of that window.
    /// - Returns: the suggestion.
    public static func suggestion(for field: FieldSummary, since: Date, until: Date) -> Suggestion {
        let steps = JSONPathStep.parse(field.path) ?? []
        let value = SampledValue(
            snippet: field.sample.snippet, path: field.path, kind: field.kind, message: field.sample.message)
        let change = AppChange(field: field, steps: steps, value: value)
        var backendReport: String?
        var summary = "\(field.path) \(change.problem): \(change.fix)"
        if let judgement = field.drift, judgement.verdict == .backendViolatesSpec {
            backendReport = BackendReport.markdown(
                field: field, judgement: judgement, problem: change.problem, received: value, since: since,
                until: until)
            summary += "; the backend breaks its spec here, so also send it the report"
        }
        return Suggestion(
            summary: summary + ".", remedy: change.remedy, received: value.type, swift: change.swift,
            backendReport: backendReport)
    }

    /// Writes the issue a backend team gets about a breaking field (docs/cli.md#issue): the report of
    /// ``suggestion(for:since:until:)`` whatever the verdict, its spec's part only when the app has a contract.
    /// - Parameters:
    ///   - field: a breaking field, with its verdict in `drift` when its app has a contract.
    ///   - since: the start of the window its numbers cover.
    ///   - until: the end of that window.
    ///   - dashboard: the collector's public address, for a link to the group's page; `nil` for none.
    /// - Returns: the issue's title, at most ``BackendIssue/maxTitleLength`` characters, and its Markdown body.
    public static func issue(for field: FieldSummary, since: Date, until: Date, dashboard: URL?) -> BackendIssue {
        let value = SampledValue(
            snippet: field.sample.snippet, path: field.path, kind: field.kind, message: field.sample.message)
        let change = AppChange(field: field, steps: JSONPathStep.parse(field.path) ?? [], value: value)
        let title = BackendReport.title(field: field, judgement: field.drift, problem: change.problem)
        let body = BackendReport.markdown(
            field: field, judgement: field.drift, problem: change.problem, received: value, since: since,
            until: until, link: AlertField.page(of: field.group, under: dashboard))
        let fits = title.count <= BackendIssue.maxTitleLength
        return BackendIssue(
            title: fits ? title : String(title.prefix(BackendIssue.maxTitleLength - 1)) + "…", body: body)
    }
}

/// An issue for a backend team's tracker about one breaking field
/// (``SuggestionWriter/issue(for:since:until:dashboard:)``).
public struct BackendIssue: Sendable, Hashable {
    /// The longest title written: GitHub refuses 256 characters or more, so a longer one is cut and ends in "…".
    public static let maxTitleLength = 255
    /// One line: the endpoint, the path and what went wrong.
    public var title: String
    /// The Markdown report.
    public var body: String
}

extension FieldsSummary {
    /// The summary with every field's ``FieldSummary/suggestion`` written, from its verdict when it has one
    /// (``ContractSet/annotating(_:)`` first).
    public func withSuggestions() -> FieldsSummary {
        var written = self
        for index in written.fields.indices {
            written.fields[index].suggestion = SuggestionWriter.suggestion(
                for: written.fields[index], since: since, until: until)
        }
        return written
    }
}

/// The change to the app: which remedy, its Swift, and the two halves of the summary sentence.
private struct AppChange {
    var remedy: SuggestionRemedy
    var swift: String?
    /// What went wrong, after the path: "arrives as a string where the app expects Int".
    var problem: String
    /// What to do: "decode it as Either<Int, String>".
    var fix: String

    init(field: FieldSummary, steps: [JSONPathStep], value: SampledValue) {
        let spec = field.drift?.spec
        let type = SwiftNames.type(expected: field.expected, spec: spec)
        let property = Property(steps: steps, keyDecoding: field.sample.keyDecoding)
        let enumChange = EnumChange(field: field, value: value)
        problem = Self.problem(field: field, value: value, type: enumChange?.name ?? type)
        if let enumChange {
            remedy = .safeEnum
            let addsCase = field.drift?.verdict != .backendViolatesSpec
            swift = enumChange.swift(addingCase: addsCase, property: property)
            fix =
                "make \(enumChange.name) a SafeEnum with an unknown case"
                + (addsCase && enumChange.newCase != nil ? " and add the new case" : "")
            return
        }
        let readsDates = field.expected == "Date" || spec?.format == "date-time" || spec?.format == "date"
        if field.kind == .typeMismatch || field.kind == .dataCorrupted,
            readsDates || (field.expected == "Double" || field.expected == nil) && value.type == .string,
            let format = DateFormat.of(value)
        {
            remedy = .dateStrategy
            swift = (property.declaration.map { "// \($0.name): Date\n" } ?? "") + format.swift
            fix = "decode dates as \(format.label) with the decoder's date strategy"
            return
        }
        if field.kind != .keyNotFound, field.kind != .valueNotFound, let wider = Self.widerNumber(type, value),
            let declaration = property.declaration
        {
            remedy = .widerNumber
            swift = declaration.code("let \(declaration.name): \(declaration.wrap(wider))")
            fix = "declare it as \(wider)"
            return
        }
        if field.kind == .typeMismatch, let received = SwiftNames.type(of: value),
            let wanted = ExpectedJSONType.of(type), Self.scalarTypes[wanted]?.contains(received) == false,
            property.trailingWildcards == 0, let declaration = property.declaration
        {
            let either = "Either<\(type), \(received)>"
            remedy = .either
            swift = declaration.code(
                "let \(declaration.name): \(either)" + Self.reading(declaration.name, type, from: received))
            fix = "decode it as \(either)"
            return
        }
        let missing =
            field.kind == .keyNotFound || field.kind == .valueNotFound
            || (field.kind == .typeMismatch && value.type == .null)
        if property.trailingWildcards > 0, field.kind != .keyNotFound {
            remedy = .safeArray
            if let declaration = property.declaration {
                swift = declaration.code("@SafeArray var \(declaration.name): \(declaration.wrap(type))")
                fix = "decode \(declaration.name) with @SafeArray so the elements that decode are kept"
            } else {
                let endpoint = SwiftNames.quoted(field.endpoint)
                swift =
                    "let elements = try decoder.decode(\n    SafeArray<\(property.wrap(type, dropping: 1))>.self, from: data, "
                    + "endpoint: \(endpoint), reporter: reporter\n).wrappedValue"
                fix = "decode the response as a SafeArray so the elements that decode are kept"
            }
            return
        }
        guard let declaration = property.declaration else {
            remedy = .none
            swift = nil
            fix = "no property to change; check that the endpoint answers JSON of the shape the app decodes"
            return
        }
        if missing, field.drift?.verdict == .appStricterThanSpec {
            remedy = .optional
            swift = declaration.code("let \(declaration.name): \(type)?")
            fix = "the spec allows it, so declare it optional"
        } else if missing {
            remedy = .maybe
            swift = declaration.code("let \(declaration.name): Maybe<\(type)>")
            fix = "decode it as Maybe<\(type)> to keep the object, the error and the report"
        } else {
            remedy = .safe
            swift = declaration.code("@Safe var \(declaration.name): \(type)?")
            fix = "wrap it in @Safe so it becomes nil instead of failing the object around it"
        }
    }

    /// The JSON scalar types, and the Swift types of sampled values that already are of each.
    private static let scalarTypes: [String: Set<String>] = [
        "string": ["String"], "integer": ["Int"], "number": ["Int", "Double"], "boolean": ["Bool"],
    ]

    /// What went wrong, in words, after the field's path.
    private static func problem(field: FieldSummary, value: SampledValue, type name: String) -> String {
        let type = name.hasPrefix("<#") ? "its type" : name
        let shown = value.scalar.flatMap { $0.count <= 40 ? $0 : nil }
        let sample = shown.map { value.type == .string ? " (\"\($0)\")" : " (\($0))" } ?? ""
        switch field.kind {
        case .keyNotFound: return "is missing"
        case .valueNotFound: return "is null where the app expects \(type)"
        case .typeMismatch:
            guard value.type != .absent else { return "has another type than \(type), which the app expects" }
            return "arrives as \(article(value.type))\(sample) where the app expects \(type)"
        case .unknownValue: return "holds a value\(sample) that \(type) does not know"
        case .dataCorrupted: return "holds a value\(sample) that \(type) cannot be made from"
        case .other: return "failed to decode as \(type)"
        }
    }

    private static func article(_ type: SampledJSONType) -> String {
        switch type {
        case .array, .object: return "an \(type.rawValue)"
        case .null: return "null"
        default: return "a \(type.rawValue)"
        }
    }

    /// A wider number type for a number its expected integer type cannot hold: `Double` for a fraction or a value
    /// beyond 64 bits, `Int64` for a 64-bit value in a narrower type.
    private static func widerNumber(_ type: String, _ value: SampledValue) -> String? {
        guard value.type == .number, let number = value.number, ExpectedJSONType.of(type) == "integer" else {
            return nil
        }
        guard number == number.rounded(), abs(number) < 9.2e18 else { return "Double" }
        return type == "Int" || type == "Int64" ? nil : "Int64"
    }

    /// A comment showing how to read both alternatives as the expected type, when a conversion exists.
    private static func reading(_ name: String, _ type: String, from received: String) -> String {
        let converted: String
        if received == "String", ["integer", "number", "boolean"].contains(ExpectedJSONType.of(type) ?? "") {
            converted = "\(name).right.flatMap { \(type)($0) }"
        } else if type == "String" {
            converted = "\(name).right.map { String($0) }"
        } else {
            return ""
        }
        return "\n// read as \(type): \(name).left ?? \(converted)"
    }
}

/// Where the field sits in the model: the property that holds it, and how many array levels lie below that property.
private struct Property {
    /// The property, when some key of the path names one.
    var declaration: Declaration?
    /// How many `[*]` end the path: the field is an element (of an element…) of the property.
    var trailingWildcards: Int

    /// - Parameter keyDecoding: how the app's decoder names keys (``Sample/keyDecoding``), so that the property is
    ///   named as the app spells it.
    init(steps: [JSONPathStep], keyDecoding: KeyDecoding?) {
        trailingWildcards = steps.reversed().prefix { $0 == .wildcard }.count
        let owner = steps.dropLast(trailingWildcards).last
        if case .key(let key)? = owner {
            let (name, codingKey) = SwiftNames.property(key, keyDecoding: keyDecoding)
            declaration = Declaration(name: name, key: key, codingKey: codingKey, arrays: trailingWildcards)
        }
    }

    /// A type nested in the arrays below the property, less `dropping` levels.
    func wrap(_ type: String, dropping: Int = 0) -> String {
        Declaration(name: "", key: "", arrays: trailingWildcards).wrap(type, dropping: dropping)
    }

    struct Declaration {
        /// The Swift property name.
        var name: String
        /// The JSON key, as the payload spells it.
        var key: String
        /// What the property's `CodingKeys` case must hold, when the decoder cannot name the property by itself.
        var codingKey: String? = nil
        /// How many array levels lie between the property and the field.
        var arrays: Int

        /// `type` in `arrays - dropping` levels of arrays.
        func wrap(_ type: String, dropping: Int = 0) -> String {
            let levels = max(0, arrays - dropping)
            return String(repeating: "[", count: levels) + type + String(repeating: "]", count: levels)
        }

        /// The declaration's code, after a line mapping the key when the property cannot be named after it.
        func code(_ declaration: String) -> String {
            guard let codingKey else { return declaration }
            let read = codingKey == key ? "" : ", which convertFromSnakeCase reads as \(SwiftNames.quoted(codingKey))"
            return "// JSON key \(SwiftNames.quoted(key))\(read): in CodingKeys, case \(name) = "
                + "\(SwiftNames.quoted(codingKey))\n" + declaration
        }
    }
}

/// A plain enum or a `SafeEnum` that met a raw value it does not know.
private struct EnumChange {
    /// The enum's name.
    var name: String
    /// Its raw type, `String` or `Int`.
    var rawType: String
    /// The declaration of the unknown value's case, when the value is known.
    var newCase: String?

    /// Recognizes an enum failure: `unknownValue` from a `SafeEnum`, or Swift's own `dataCorrupted` for a plain
    /// enum, "Cannot initialize State from invalid String value merged".
    init?(field: FieldSummary, value: SampledValue) {
        let plain = field.kind == .dataCorrupted ? InvalidRawValue(message: field.sample.message) : nil
        guard field.kind == .unknownValue || plain != nil else { return nil }
        name = plain?.enumName ?? field.expected.flatMap { $0.isEmpty ? nil : $0 } ?? "<#Enum#>"
        let isNumber = plain.map { $0.rawType != "String" } ?? (value.type == .number)
        rawType = isNumber ? "Int" : "String"
        let raw = (value.type == .string || value.type == .number) ? value.scalar : plain?.value
        newCase = raw.map { SwiftNames.enumCase($0, isNumber: isNumber) }
    }

    /// The enum's declaration, and the property holding it when the path ends in a key.
    func swift(addingCase: Bool, property: Property) -> String {
        var lines = [
            "enum \(name): \(rawType), SafeEnum {",
            "    // the cases the app knows, then:",
        ]
        if addingCase, let newCase { lines.append("    \(newCase)") }
        lines += ["    case unknown", "}"]
        if let declaration = property.declaration {
            lines.append(declaration.code("let \(declaration.name): \(declaration.wrap(name))"))
        }
        return lines.joined(separator: "\n")
    }
}

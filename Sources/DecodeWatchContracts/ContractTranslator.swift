import DecodeWatchCore
import Foundation
import OpenAPIKit

/// Turns an OpenAPI 3.1 model (3.0 documents arrive converted) into a ``ContractSpec``: each operation's
/// successful JSON response schemas, and the shared schemas they reference.
///
/// Every `$ref` is checked here, so a stored contract never points at a schema it lacks; references stay
/// references in the stored form (``ContractSchema/ref``) so recursive schemas cost nothing.
struct ContractTranslator {
    let document: OpenAPI.Document
    let source: String
    let declaredVersion: String

    func translate() throws(ContractImportError) -> ContractSpec {
        var schemas: [String: ContractSchema] = [:]
        for (key, schema) in document.components.schemas {
            schemas[key.rawValue] = try translate(schema, at: "components.schemas.\(key.rawValue)")
        }
        var operations: [ContractOperation] = []
        for (path, entry) in document.paths {
            let place = "paths.\(path.rawValue)"
            let item = try resolve(entry, at: place)
            for endpoint in item.endpoints {
                let method = endpoint.method.rawValue.uppercased()
                let responses = try translate(
                    endpoint.operation.responses, at: "\(place).\(endpoint.method.rawValue.lowercased()).responses")
                operations.append(ContractOperation(method: method, path: path.rawValue, responses: responses))
            }
        }
        return ContractSpec(
            openapi: declaredVersion, title: document.info.title, version: document.info.version,
            servers: document.servers.map(\.urlTemplate.rawValue), operations: operations, schemas: schemas)
    }

    /// The successful responses with a JSON body: numbered 2xx first, then `2XX`; `default` only when neither exists.
    private func translate(_ responses: OpenAPI.Response.Map, at place: String) throws(ContractImportError)
        -> [ContractResponse]
    {
        var numbered: [(Int, ContractResponse)] = []
        var ranged: [ContractResponse] = []
        var fallback: [ContractResponse] = []
        for (status, entry) in responses {
            let isDefault = status == .default
            guard status.isSuccess || isDefault else { continue }
            let responsePlace = "\(place).\(status.rawValue)"
            let response = try resolve(entry, at: responsePlace)
            guard let (contentType, content) = response.content.first(where: { Self.isJSON($0.key) }) else { continue }
            let contentPlace = "\(responsePlace).content.\(contentType.rawValue)"
            let body = try resolve(content, at: contentPlace)
            guard let schema = body.schema else { continue }
            let translated = ContractResponse(
                status: status.rawValue, schema: try translate(schema, at: "\(contentPlace).schema"))
            switch status.value {
            case .status(let code): numbered.append((code, translated))
            case .range: ranged.append(translated)
            case .default: fallback.append(translated)
            }
        }
        let specific = numbered.sorted { $0.0 < $1.0 }.map(\.1) + ranged
        return specific.isEmpty ? fallback : specific
    }

    private static func isJSON(_ type: OpenAPI.ContentType) -> Bool {
        let name = type.typeAndSubtype.lowercased()
        return name == "application/json" || name.hasSuffix("+json") || name == "*/*"
    }

    /// One schema, with its references checked.
    private func translate(_ schema: JSONSchema, at place: String) throws(ContractImportError) -> ContractSchema {
        let nullable: Bool? = schema.nullable ? true : nil
        let format = schema.formatString.flatMap { $0.isEmpty ? nil : $0 }
        let enumValues = schema.allowedValues.map { $0.map(Self.text) }
        switch schema.value {
        case .reference(let reference, _):
            guard case .internal(.component(let name)) = reference,
                document.components.schemas[OpenAPI.ComponentKey(rawValue: name) ?? "-"] != nil
            else {
                throw missing(reference.absoluteString, at: place)
            }
            return nullable == true
                ? ContractSchema(nullable: true, allOf: [.reference(name)]) : .reference(name)
        case .null:
            return ContractSchema(types: ["null"], nullable: true)
        case .boolean:
            return ContractSchema(types: ["boolean"], nullable: nullable, enumValues: enumValues)
        case .number:
            return ContractSchema(types: ["number"], format: format, nullable: nullable, enumValues: enumValues)
        case .integer:
            return ContractSchema(types: ["integer"], format: format, nullable: nullable, enumValues: enumValues)
        case .string:
            return ContractSchema(types: ["string"], format: format, nullable: nullable, enumValues: enumValues)
        case .object(_, let object):
            var properties: [String: ContractSchema] = [:]
            for (key, property) in object.properties {
                properties[key] = try translate(property, at: "\(place).properties.\(key)")
            }
            var additional: ContractSchema?
            if case .b(let values) = object.additionalProperties {
                additional = try translate(values, at: "\(place).additionalProperties")
            }
            return ContractSchema(
                types: ["object"], nullable: nullable, enumValues: enumValues,
                properties: properties.isEmpty ? nil : properties,
                required: object.requiredProperties.isEmpty ? nil : object.requiredProperties,
                additionalProperties: additional)
        case .array(_, let array):
            let items = try array.items.map { items throws(ContractImportError) in
                try translate(items, at: "\(place).items")
            }
            return ContractSchema(types: ["array"], nullable: nullable, enumValues: enumValues, items: items)
        case .all(let parts, _):
            return ContractSchema(
                format: format, nullable: nullable, enumValues: enumValues,
                allOf: try translate(parts, at: "\(place).allOf"))
        case .one(let parts, _):
            return ContractSchema(
                format: format, nullable: nullable, enumValues: enumValues,
                anyOf: try translate(parts, at: "\(place).oneOf"))
        case .any(let parts, _):
            return ContractSchema(
                format: format, nullable: nullable, enumValues: enumValues,
                anyOf: try translate(parts, at: "\(place).anyOf"))
        case .not:
            return ContractSchema(nullable: nullable)
        case .fragment:
            return ContractSchema(format: format, nullable: nullable, enumValues: enumValues)
        }
    }

    private func translate(_ parts: [JSONSchema], at place: String) throws(ContractImportError) -> [ContractSchema] {
        var translated: [ContractSchema] = []
        for (index, part) in parts.enumerated() { translated.append(try translate(part, at: "\(place).\(index)")) }
        return translated
    }

    /// An enum value as text: a string as it is, anything else as its JSON text.
    private static func text(_ value: AnyCodable) -> String {
        if let string = value.value as? String { return string }
        if let data = try? JSONEncoder().encode(value), let text = String(data: data, encoding: .utf8) { return text }
        return String(describing: value.value)
    }

    /// A path item, response or content as written, or the component its `$ref` names.
    private func resolve<Component: ComponentDictionaryLocatable>(
        _ entry: Either<OpenAPI.Reference<Component>, Component>, at place: String
    ) throws(ContractImportError) -> Component {
        switch entry {
        case .b(let value): return value
        case .a(let reference):
            guard let found = try? document.components.lookup(reference) else {
                throw missing(reference.absoluteString, at: place)
            }
            return found
        }
    }

    private func missing(_ reference: String, at place: String) -> ContractImportError {
        ContractImportError("\(source): \(place): $ref '\(reference)' does not exist in this document.")
    }
}

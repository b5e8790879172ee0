/// Finds what a contract says about a group: the operation its endpoint belongs to, and the schema node
/// its field path leads to.
///
/// Endpoints match operations by method and path template: a literal segment must be equal, a template
/// segment of the spec (`{owner}`, `{issue_number}`) matches anything, including the collector's `{id}`;
/// the operation with the most literal segments wins, so `/user/repos` beats `/users/{username}`.
/// Paths follow the schema: `.key` to a property (or to a map's `additionalProperties`), `[*]` to an
/// array's `items` or to a map's values (dictionaries keyed by ids); `$ref` is followed, `allOf` merged,
/// and `oneOf`/`anyOf` alternatives are kept side by side, so a promise holds only when every alternative
/// makes it.
public struct ContractMapper: Sendable {
    /// The contract's name.
    public let name: String
    /// The contract.
    public let spec: ContractSpec

    /// Creates a mapper.
    public init(name: String, spec: ContractSpec) {
        self.name = name
        self.spec = spec
    }

    /// The operation a normalized endpoint (`GET /repos/octocat/hello/issues/{id}`) belongs to.
    /// - Returns: the best-matching operation, or `nil` when the spec describes none.
    public func operation(for endpoint: String) -> ContractOperation? {
        guard let space = endpoint.firstIndex(of: " ") else { return nil }
        let method = endpoint[..<space].uppercased()
        let path = String(endpoint[endpoint.index(after: space)...])
        let paths =
            [path]
            + spec.basePaths.compactMap { base -> String? in
                let prefix = base.hasSuffix("/") ? String(base.dropLast()) : base
                guard !prefix.isEmpty, path.hasPrefix(prefix + "/") else { return nil }
                return String(path.dropFirst(prefix.count))
            }
        var best: (operation: ContractOperation, score: Int)?
        for operation in spec.operations where operation.method == method {
            for candidate in paths {
                guard let score = Self.match(candidate, template: operation.path) else { continue }
                if score > best?.score ?? -1 { best = (operation, score) }
            }
        }
        return best?.operation
    }

    /// How many literal segments of a template a path matches, or `nil` when it does not match.
    static func match(_ path: String, template: String) -> Int? {
        let segments = path.split(separator: "/")
        let templateSegments = template.split(separator: "/")
        guard segments.count == templateSegments.count else { return nil }
        var score = 0
        for (segment, templateSegment) in zip(segments, templateSegments) {
            if templateSegment.contains("{") { continue }
            guard segment == templateSegment else { return nil }
            score += 1
        }
        return score
    }

    /// Maps a group's endpoint and rendered path to what the spec says there.
    /// - Parameters:
    ///   - endpoint: the normalized endpoint.
    ///   - path: the rendered field path, such as `$.results[*].title`.
    /// - Returns: the spec's view and whether the field is described.
    public func map(endpoint: String, path: String) -> ContractMapping {
        var view = SpecView(contract: name)
        guard let operation = operation(for: endpoint) else {
            return ContractMapping(view: view, outcome: .noOperation)
        }
        view.operation = operation.name
        guard let response = operation.responses.first else {
            return ContractMapping(view: view, outcome: .noResponseBody)
        }
        view.status = response.status
        guard let steps = JSONPathStep.parse(path) else { return ContractMapping(view: view, outcome: .unreadablePath) }
        var location =
            "#/paths/\(Self.escape(operation.path))/\(operation.method.lowercased())/responses/"
            + "\(response.status)/content/application~1json/schema"
        var facets = self.facets(of: response.schema, at: location, depth: 0)
        var required: Bool?
        for (index, step) in steps.enumerated() {
            let parent = JSONPathStep.render(Array(steps[..<index]))
            guard facets.contains(where: \.describesShape) else {
                view.location = location
                return ContractMapping(view: view, outcome: .freeForm(parent: parent))
            }
            var children: [(schema: ContractSchema, location: String)] = []
            switch step {
            case .key(let key):
                var everyRequires = true
                for facet in facets {
                    if let property = facet.properties[key] {
                        children.append(property)
                        if !facet.required.contains(key) { everyRequires = false }
                    } else if let values = facet.additional {
                        children.append(values)
                        everyRequires = false
                    } else {
                        everyRequires = false
                    }
                }
                required = everyRequires
            case .wildcard:
                for facet in facets {
                    if let items = facet.items {
                        children.append(items)
                    } else if let values = facet.additional {
                        children.append(values)
                    }
                }
                required = nil
            }
            guard let first = children.first else {
                view.location = location
                return ContractMapping(view: view, outcome: .fieldMissing(step: step, parent: parent))
            }
            location = first.location
            facets = children.flatMap { self.facets(of: $0.schema, at: $0.location, depth: 0) }
        }
        view.location = location
        view.required = required
        view.nullable = facets.contains(where: \.nullable)
        if facets.allSatisfy({ $0.types != nil }) {
            let types = Set(facets.flatMap { $0.types ?? [] })
            view.types = Self.typeOrder.filter(types.contains)
        }
        let formats = Set(facets.map(\.format))
        if formats.count == 1, let format = formats.first { view.format = format }
        if !facets.isEmpty, facets.allSatisfy({ $0.enumValues != nil }) {
            var values: [String] = []
            for value in facets.flatMap({ $0.enumValues ?? [] }) where !values.contains(value) { values.append(value) }
            view.enumValues = values
        }
        return ContractMapping(view: view, outcome: .described)
    }

    private static let typeOrder = ["object", "array", "string", "integer", "number", "boolean"]

    /// The most alternatives one node expands to; beyond it, `allOf` of `oneOf`s stops multiplying.
    private static let maxFacets = 32
    /// How many references in a row are followed before a node counts as undescribed (a `$ref` cycle).
    private static let maxDepth = 32

    /// The alternatives a schema allows, with references followed and `allOf` merged.
    private func facets(of schema: ContractSchema, at location: String, depth: Int) -> [Facet] {
        guard depth < Self.maxDepth else { return [Facet(location: location)] }
        if let ref = schema.ref {
            guard let target = spec.schemas[ref] else { return [Facet(location: location)] }
            return facets(of: target, at: "#/components/schemas/\(Self.escape(ref))", depth: depth + 1)
        }
        var result = [Facet(schema, at: location)]
        for (index, part) in (schema.allOf ?? []).enumerated() {
            let parts = facets(of: part, at: "\(location)/allOf/\(index)", depth: depth + 1)
            result = Self.combine(result, parts)
        }
        if let alternatives = schema.anyOf {
            var expanded: [Facet] = []
            var allowsNull = false
            for (index, alternative) in alternatives.enumerated() {
                for facet in facets(of: alternative, at: "\(location)/anyOf/\(index)", depth: depth + 1) {
                    if facet.types == [] && facet.nullable { allowsNull = true } else { expanded.append(facet) }
                }
            }
            if !expanded.isEmpty { result = Self.combine(result, expanded) }
            if allowsNull {
                result = result.map {
                    var facet = $0; facet.nullable = true; return facet
                }
            }
        }
        return result
    }

    private static func combine(_ left: [Facet], _ right: [Facet]) -> [Facet] {
        var combined: [Facet] = []
        for a in left {
            for b in right where combined.count < maxFacets { combined.append(a.merged(with: b)) }
        }
        return combined
    }

    /// A JSON pointer token: `~` as `~0`, `/` as `~1`.
    static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

/// What ``ContractMapper/map(endpoint:path:)`` found.
public struct ContractMapping: Sendable, Hashable {
    /// What the spec says, as far as it was found.
    public var view: SpecView
    /// Whether the field is described, and if not, where the description stops.
    public var outcome: Outcome

    /// Where a mapping ended.
    public enum Outcome: Sendable, Hashable {
        /// The field is described; ``ContractMapping/view`` holds what the spec says.
        case described
        /// No operation of the spec matches the endpoint.
        case noOperation
        /// The operation has no successful JSON response body.
        case noResponseBody
        /// The group's path is not a rendered path (written by an older collector, say).
        case unreadablePath
        /// The spec leaves the value at `parent` free-form (no type, properties or items), so nothing below is described.
        case freeForm(parent: String)
        /// The object or array at `parent` does not describe `step`.
        case fieldMissing(step: JSONPathStep, parent: String)
    }
}

/// One alternative of a schema node, references followed and `allOf` parts merged.
private struct Facet {
    var location: String
    /// `nil` for any type; never holds `null` (that is ``nullable``).
    var types: Set<String>?
    var nullable = false
    var format: String?
    var enumValues: [String]?
    var properties: [String: (schema: ContractSchema, location: String)] = [:]
    var required: Set<String> = []
    var additional: (schema: ContractSchema, location: String)?
    var items: (schema: ContractSchema, location: String)?

    init(location: String) { self.location = location }

    init(_ schema: ContractSchema, at location: String) {
        self.location = location
        if let types = schema.types {
            self.types = Set(types.filter { $0 != "null" })
            if types.contains("null") { nullable = true }
        }
        if schema.nullable == true { nullable = true }
        format = schema.format
        enumValues = schema.enumValues
        for (key, property) in schema.properties ?? [:] {
            properties[key] = (property, "\(location)/properties/\(ContractMapper.escape(key))")
        }
        required = Set(schema.required ?? [])
        additional = schema.additionalProperties.map { ($0, "\(location)/additionalProperties") }
        items = schema.items.map { ($0, "\(location)/items") }
    }

    /// Whether it says anything a path can step into.
    var describesShape: Bool { !properties.isEmpty || additional != nil || items != nil }

    /// Both at once (`allOf`): types narrow, properties and required keys add up. `nullable` on either side
    /// counts, as in the common 3.0 idiom `allOf: [$ref]` with `nullable: true` beside it.
    func merged(with other: Facet) -> Facet {
        var merged = self
        switch (types, other.types) {
        case (nil, let right): merged.types = right
        case (let left?, let right?): merged.types = left.intersection(right)
        case (_, nil): break
        }
        merged.nullable = nullable || other.nullable
        merged.format = format ?? other.format
        merged.enumValues = enumValues ?? other.enumValues
        merged.properties.merge(other.properties) { mine, _ in mine }
        merged.required.formUnion(other.required)
        merged.additional = additional ?? other.additional
        merged.items = items ?? other.items
        return merged
    }
}

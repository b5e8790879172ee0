import DecodeWatchCore

extension FieldReads {
    /// The warnings of a query that found nothing: each filter value that no stored batch ever carried, so that the
    /// empty answer is not read as "nothing broke". Versions and endpoints are looked up within the app asked for,
    /// when that app is known.
    /// - Parameter values: each filter given, with its value.
    /// - Returns: one warning per unknown value, in the order given.
    public func unknownValueWarnings(_ values: KeyValuePairs<QueryFilter, String?>) async throws -> [QueryWarning] {
        var app = values.first { $0.key == .app }?.value ?? nil
        var warnings: [QueryWarning] = []
        for case (let filter, let value?) in values {
            let scope = filter == .version || filter == .endpoint ? app : nil
            let known = try await knownValues(of: filter, app: scope)
            guard !known.contains(value) else { continue }
            warnings.append(.unknown(filter, value: value, known: known, app: scope))
            if filter == .app { app = nil }
        }
        return warnings
    }

    /// The warnings of a fields query that found nothing (``unknownValueWarnings(_:)``); none when it found some.
    public func unknownValueWarnings(_ query: FieldsQuery, found: Bool) async throws -> [QueryWarning] {
        guard !found else { return [] }
        return try await unknownValueWarnings([
            .app: query.app, .version: query.version, .environment: query.environment, .endpoint: query.endpoint,
            .kind: query.kind?.rawValue,
        ])
    }
}

extension DriftVerdict {
    /// Reads the `verdict` filter of `GET /v1/drift` and `decodewatch drift`.
    /// - Parameter text: a verdict's name, or `nil` for no filter.
    /// - Throws: ``QueryError`` listing the names when it is none of them.
    public static func parse(_ text: String?) throws(QueryError) -> DriftVerdict? {
        guard let text else { return nil }
        guard let verdict = DriftVerdict(rawValue: text) else {
            let names = DriftVerdict.allCases.map(\.rawValue).joined(separator: ", ")
            throw QueryError("verdict '\(text)' is unknown; use one of \(names).")
        }
        return verdict
    }
}

@_spi(WireInternals) import DecodeWatchWire

extension PathElement {
    /// Converts a coding key from a decoder's path to a wire path element.
    ///
    /// Array positions come from unkeyed containers, whose keys carry an `intValue` and a
    /// `stringValue` of `"Index N"`; every other key, including digit-only dictionary keys, is an
    /// object key (docs/wire-format.md#coding-paths: strings are keys, integers are indices).
    init(_ key: any CodingKey) {
        if let index = key.intValue, index >= 0, key.stringValue == "Index \(index)" {
            self = .index(index)
        } else {
            self = .key(key.stringValue)
        }
    }
}

/// Helpers for coding paths.
enum CodingPath {
    /// The wire form of a decoder's coding path.
    static func elements(_ path: [any CodingKey]) -> [PathElement] {
        path.map(PathElement.init)
    }

    /// The path to report, given where the error says it happened and where the wrapper sits.
    ///
    /// JSONDecoder's error paths are absolute, so an error path that starts with the wrapper's
    /// position is used as is. Some errors carry a shorter path than the value that failed (with the
    /// `.iso8601` date strategy the field name is missing); then the wrapper's position is the best
    /// we know. An error path that neither extends nor prefixes the position comes from an
    /// independent decoder (for example JSON nested in a string) and is appended to the position.
    static func resolve(error: [PathElement], position: [PathElement]) -> [PathElement] {
        if error.count < position.count { return position }
        if error.starts(with: position) { return error }
        return position + error
    }
}

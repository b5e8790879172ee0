import DecodeWatchWire
import Foundation

/// Real GitHub API responses from `Fixtures/`, and edits of them.
///
/// Loaded relative to this file (`#filePath`), since the test target declares no resources. Symbolic links are
/// resolved first: the collector's end-to-end tests compile this folder through one.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The raw bytes of a fixture.
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    /// A fixture with edits applied; each edit sets (or, with `nil`, removes) the value at a path.
    static func edited(_ name: String, _ edits: [([PathElement], Any?)]) throws -> Data {
        var tree = try JSONSerialization.jsonObject(with: data(name), options: [.fragmentsAllowed])
        for (path, value) in edits {
            tree = set(tree, path: path[...], to: value)
        }
        return try JSONSerialization.data(withJSONObject: tree, options: [.fragmentsAllowed])
    }

    private static func set(_ node: Any, path: ArraySlice<PathElement>, to value: Any?) -> Any {
        guard let first = path.first else { return value ?? NSNull() }
        let rest = path.dropFirst()
        switch first {
        case .key(let key):
            var object = node as! [String: Any]
            if rest.isEmpty {
                object[key] = value
            } else {
                object[key] = set(object[key]!, path: rest, to: value)
            }
            return object
        case .index(let index):
            var array = node as! [Any]
            if rest.isEmpty, value == nil {
                array.remove(at: index)
            } else {
                array[index] = set(array[index], path: rest, to: value)
            }
            return array
        }
    }
}

extension PathElement: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .key(value) }
    public init(integerLiteral value: Int) { self = .index(value) }
}

import DecodeWatchWire

/// What one decoding failure looks like once it is classified: where, what kind, what was expected.
///
/// Built from the error a wrapper caught, the wrapper's own position and the type it wraps, with
/// the rules of docs/wire-format.md#reports (`path`, `kind`, `expected`, `message`).
struct DecodeFailure: Sendable, Hashable {
    /// The coding path from the payload root to the failing value.
    var path: [PathElement]
    /// What went wrong.
    var kind: ReportKind
    /// The type the app expected, when known.
    var expected: String?
    /// The error's debug description.
    var message: String

    init(path: [PathElement], kind: ReportKind, expected: String?, message: String) {
        self.path = path
        self.kind = kind
        self.expected = expected
        self.message = message
    }

    /// Classifies a caught error.
    /// - Parameters:
    ///   - error: what the wrapped type's decoding threw.
    ///   - position: the wrapper's coding path.
    ///   - wrapped: the type the wrapper tried to decode; it is the expected type when the failure is
    ///     at the wrapper's own position and the error does not name a type.
    init(error: any Error, position: [PathElement], wrapped: Any.Type) {
        let wrappedName = TypeName.of(wrapped)
        guard let decodingError = error as? DecodingError else {
            // Foundation on Linux throws its own JSON error from inside a decode for a number that does not
            // fit (42.5 into Int), where Apple platforms and its own top level throw dataCorrupted: report
            // it as that. It carries no path, so the wrapper's position is the best we know. Any other
            // error (thrown by the app's own init(from:)) is `other`.
            let kind: ReportKind = Self.isFoundationJSONError(error) ? .dataCorrupted : .other
            self.init(path: position, kind: kind, expected: wrappedName, message: String(describing: error))
            return
        }
        switch decodingError {
        case .typeMismatch(let type, let context):
            let path = CodingPath.resolve(error: CodingPath.elements(context.codingPath), position: position)
            self.init(path: path, kind: .typeMismatch, expected: TypeName.of(type), message: context.debugDescription)
        case .valueNotFound(let type, let context):
            let path = CodingPath.resolve(error: CodingPath.elements(context.codingPath), position: position)
            self.init(path: path, kind: .valueNotFound, expected: TypeName.of(type), message: context.debugDescription)
        case .keyNotFound(let key, let context):
            // Swift leaves the missing key out of the path; the wire format wants it as the last element
            // (docs/wire-format.md#coding-paths).
            let errorPath = CodingPath.elements(context.codingPath) + [PathElement(key)]
            let path = CodingPath.resolve(error: errorPath, position: position)
            // The missing key's type is not in the error; it is only known when the wrapper itself sits there.
            self.init(
                path: path, kind: .keyNotFound, expected: path == position ? wrappedName : nil,
                message: context.debugDescription)
        case .dataCorrupted(let context):
            let path = CodingPath.resolve(error: CodingPath.elements(context.codingPath), position: position)
            self.init(
                path: path, kind: .dataCorrupted, expected: path == position ? wrappedName : nil,
                message: context.debugDescription)
        @unknown default:
            self.init(path: position, kind: .other, expected: wrappedName, message: String(describing: error))
        }
    }
}

extension DecodeFailure {
    /// Whether an error is swift-corelibs-foundation's internal JSON error (its type is not public).
    static func isFoundationJSONError(_ error: any Error) -> Bool {
        String(reflecting: type(of: error)) == "FoundationEssentials.JSONError"
    }
}

/// Readable names of Swift types for `type` and `expected`.
enum TypeName {
    /// Names already made: `String(describing:)` of a type asks the runtime to demangle it, which costs
    /// more than the rest of a folded failure. The app's types are few, so the cache stays small.
    private static let names = Locked<[ObjectIdentifier: String]>([:])

    /// The unqualified name of a type, `Optional` unwrapped: `Post`, `Array<Post>`, `String`.
    static func of(_ type: Any.Type) -> String {
        let id = ObjectIdentifier(type)
        if let known = names.withLock({ $0[id] }) { return known }
        var name = String(describing: type)
        while name.hasPrefix("Optional<"), name.hasSuffix(">") {
            name = String(name.dropFirst("Optional<".count).dropLast())
        }
        names.withLock { $0[id] = name }
        return name
    }
}

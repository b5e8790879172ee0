import DecodeWatchWire

/// What one decoding failure looks like once it is classified: where, what kind, what was expected.
///
/// Built from the error a wrapper caught, the wrapper's own position and the type it wraps, with
/// the rules of SPEC §1 (`path`, `kind`, `expected`, `message`).
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
            // Foundation on Linux throws its own error type for a number that does not fit (42.5 into Int);
            // it carries no path, so the wrapper's position is the best we know.
            self.init(path: position, kind: .other, expected: wrappedName, message: String(describing: error))
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
            // Swift leaves the missing key out of the path; SPEC §1 wants it as the last element.
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

/// Readable names of Swift types for `type` and `expected`.
enum TypeName {
    /// The unqualified name of a type, `Optional` unwrapped: `Post`, `Array<Post>`, `String`.
    static func of(_ type: Any.Type) -> String {
        var name = String(describing: type)
        while name.hasPrefix("Optional<"), name.hasSuffix(">") {
            name = String(name.dropFirst("Optional<".count).dropLast())
        }
        return name
    }
}

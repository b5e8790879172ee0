@_spi(WireInternals) import DecodeWatchWire

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
        guard let reading = ErrorReading(error) else {
            // Thrown by the app's own init(from:).
            self.init(path: position, kind: .other, expected: TypeName.of(wrapped), message: String(describing: error))
            return
        }
        // An error without a path happened at the wrapper's position, the best we know.
        let path = reading.path.map { CodingPath.resolve(error: $0, position: position) } ?? position
        // A missing key's type, or a corrupt value's, is only known when the wrapper itself sits there.
        let expected = reading.expected ?? (path == position ? TypeName.of(wrapped) : nil)
        self.init(path: path, kind: reading.kind, expected: expected, message: reading.message)
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

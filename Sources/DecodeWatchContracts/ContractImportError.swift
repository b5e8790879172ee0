/// Why an OpenAPI document cannot be imported, naming the place in one sentence.
public struct ContractImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One sentence a person can act on, starting with the file and the place in it.
    public let message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Why stored bytes are not a ``HyperLogLog`` sketch this version can read.
public struct SketchFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the bytes, as a clause to follow "the sketch cannot be read: ".
    public let message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { "The sketch cannot be read: \(message)." }
}

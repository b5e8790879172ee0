/// Where and why a body stops being JSON, as found by ``StrictJSON``.
///
/// The position is given both as a byte offset (for tools) and as a line and column (for the person who
/// wrote the client), so a 400 answer can point at the exact character to fix.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte offset of the problem from the start of the body; the body's length when the text ended too soon.
    public let offset: Int
    /// The 1-based line of ``offset``. LF, CR and CR LF each end a line, as editors count them.
    public let line: Int
    /// The 1-based column of ``offset``, counted in bytes so that it agrees with ``offset`` for any text.
    public let column: Int
    /// What is wrong, in words a person can act on, e.g. `trailing comma before '}'`.
    public let reason: String
}

extension JSONSyntaxError {
    /// Creates an error at `offset` in `bytes`, working out its line and column.
    ///
    /// The line is counted here, once, rather than while scanning, so that valid bodies pay nothing for it.
    init(offset: Int, reason: String, in bytes: UnsafeRawBufferPointer) {
        var line = 1
        var lineStart = 0
        var index = 0
        while index < offset {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        self.init(offset: offset, line: line, column: offset - lineStart + 1, reason: reason)
    }

    /// The position and the reason on one line: `at line 1, column 23: trailing comma before '}'`.
    public var description: String { "at line \(line), column \(column): \(reason)" }
}

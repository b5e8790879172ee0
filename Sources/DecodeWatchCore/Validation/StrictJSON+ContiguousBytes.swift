import Foundation

extension StrictJSON {
    /// Checks that `bytes` are exactly one RFC 8259 JSON text; a convenience over any contiguous bytes.
    ///
    /// The collector holds an inflated body as `Data` and tests hold `[UInt8]`; both get the same check as the
    /// raw-pointer form without copying. This lives apart so that the scanner itself needs nothing but the
    /// standard library.
    ///
    /// - Parameters:
    ///   - bytes: the whole body, already inflated, e.g. `Data` or `[UInt8]`.
    ///   - maxDepth: the most arrays and objects that may be open at once; a negative value counts as 0.
    /// - Throws: ``JSONSyntaxError`` naming where the text stops being JSON, the first problem only.
    public static func validate<Bytes: ContiguousBytes>(
        _ bytes: Bytes,
        maxDepth: Int = defaultMaxDepth
    ) throws(JSONSyntaxError) {
        // `withUnsafeBytes` only rethrows untyped errors, so the typed one crosses it inside a Result.
        let outcome = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) in try validate(raw, maxDepth: maxDepth) }
        }
        try outcome.get()
    }
}

import DecodeWatchCore
import Testing

/// Expects a redacted text to hide a secret and to say that it did.
/// - Parameters:
///   - output: what the redactor returned.
///   - secret: text that must not appear in it.
func expectRedacted(
    _ output: String, hiding secret: some StringProtocol, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(!output.contains(secret), "\(secret) is still in \(output)", sourceLocation: sourceLocation)
    #expect(output.contains(Redactor.placeholder), "no placeholder in \(output)", sourceLocation: sourceLocation)
}

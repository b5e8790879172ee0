import ArgumentParser
import DecodeWatchCore
import Foundation

/// A duration given on the command line: a positive whole number followed by `s`, `m`, `h`, `d` or `w`
/// (`30s`, `90m`, `24h`, `7d`, `2w`), at most 100 years, read once by ``TimeReference/duration(_:)``.
struct DurationArgument: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    /// The length in seconds.
    let seconds: TimeInterval

    init?(argument: String) {
        guard let seconds = TimeReference.duration(argument) else { return nil }
        self.seconds = seconds
    }

    /// A duration of whole seconds, such as a default named elsewhere.
    init(seconds: TimeInterval) {
        self.seconds = seconds
    }

    /// The duration in its largest whole unit (`90d`, `1h`, `30s`), as the options take it.
    var description: String {
        let units: [(String, TimeInterval)] = [("w", 604_800), ("d", 86_400), ("h", 3600), ("m", 60)]
        for (unit, length) in units where seconds.truncatingRemainder(dividingBy: length) == 0 {
            return "\(Int(seconds / length))\(unit)"
        }
        return "\(Int(seconds))s"
    }

    var defaultValueDescription: String { description }

    /// Reads an option whose durations have a rule of their own, so that a value that is not a duration and
    /// one that breaks the rule are refused with the same line: "`option` 'value' must be `requirement`".
    /// - Parameters:
    ///   - option: the option as typed, e.g. `--retention`.
    ///   - requirement: what the value must be, ending with a full stop.
    ///   - accepts: the rule, on the duration's seconds.
    /// - Returns: a transform for `@Option(transform:)`.
    static func parser(
        _ option: String, mustBe requirement: String,
        accepts: @escaping @Sendable (TimeInterval) -> Bool = { _ in true }
    ) -> @Sendable (String) throws -> DurationArgument {
        { text in
            guard let duration = DurationArgument(argument: text), accepts(duration.seconds) else {
                throw ValidationError("\(option) '\(text)' must be \(requirement)")
            }
            return duration
        }
    }
}

import ArgumentParser
import DecodeWatchCore
import Foundation

/// A duration given on the command line: a positive whole number and a unit, written as people write it
/// (`30s`, `90m`, `48h`, `2d`, `2 days`, `1 week`, `2w`), at most 100 years.
///
/// The API takes only the short form (`2d`); ``description`` writes that form, so a duration typed in words
/// reaches a collector as a value every version of it reads.
struct DurationArgument: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    /// The length in seconds.
    let seconds: TimeInterval

    /// The seconds of each unit, by every name it is written with.
    private static let units: [String: TimeInterval] = {
        let names: [(TimeInterval, [String])] = [
            (1, ["s", "sec", "secs", "second", "seconds"]),
            (60, ["m", "min", "mins", "minute", "minutes"]),
            (3600, ["h", "hr", "hrs", "hour", "hours"]),
            (86_400, ["d", "day", "days"]),
            (604_800, ["w", "wk", "wks", "week", "weeks"]),
        ]
        return Dictionary(uniqueKeysWithValues: names.flatMap { length, words in words.map { ($0, length) } })
    }()

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let unit = text.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        guard let value = Int(digits), value > 0, let length = Self.units[unit] else { return nil }
        let (seconds, overflow) = value.multipliedReportingOverflow(by: Int(length))
        guard !overflow, TimeInterval(seconds) <= TimeReference.maxDuration else { return nil }
        self.seconds = TimeInterval(seconds)
    }

    /// A duration of whole seconds, such as a default named elsewhere.
    init(seconds: TimeInterval) {
        self.seconds = seconds
    }

    /// The duration in its largest whole unit (`90d`, `1h`, `30s`), as the options and the API take it.
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

    /// The arguments with each duration typed as two words (`--for 2 days`) joined into one (`2 days`), so
    /// that it is read as the value it was meant to be rather than a number without a unit and a stray word.
    ///
    /// Only a whole number right after an option and followed by a unit's name is joined; no group id, rule
    /// id or other value of the commands is a unit's name.
    static func joiningUnits(_ arguments: [String]) -> [String] {
        var joined: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let next = arguments.index(after: index)
            if index > arguments.startIndex, arguments[index - 1].hasPrefix("--"), !arguments[index - 1].contains("="),
                next < arguments.endIndex, Int(argument) != nil, units[arguments[next].lowercased()] != nil
            {
                joined.append(argument + " " + arguments[next])
                index = arguments.index(after: next)
            } else {
                joined.append(argument)
                index = next
            }
        }
        return joined
    }
}

/// A point in time on the command line: an RFC 3339 time, or a duration back from now (`24h`, `7d`, `2 days`).
struct TimeArgument: ExpressibleByArgument, Sendable, Hashable {
    /// The time as the API and the query parsers read it: as typed when they read it (`7d`, an RFC 3339 time),
    /// else the duration's short form (`2 days` is `2d`).
    let text: String

    init?(argument: String) {
        if (try? TimeReference.parse(argument, now: Date(), field: "")) != nil {
            text = argument
        } else if let duration = DurationArgument(argument: argument) {
            text = duration.description
        } else {
            return nil
        }
    }
}

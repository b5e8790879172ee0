import ArgumentParser
import DecodeWatchCore
import DecodeWatchStore
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch mute GROUP (--for 24h | --count 100)`: hides a group from the dashboard's open tabs
    /// and from the digest's new, regressed and growing lists until the mute ends.
    struct Mute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mute a group for a period or until it fails a number of more times.",
            discussion: """
                A muted group still counts in `decodewatch fields` and in the digest's totals; it leaves \
                the digest's new, regressed and growing lists and the dashboard's open tabs until the \
                mute ends. `decodewatch unmute GROUP` ends it early.
                """)

        @OptionGroup var target: GroupArgument
        @Option(
            name: .customLong("for"),
            help: ArgumentHelp("How long: 90m, 24h, 2d, '2 days', 1w.", valueName: "duration"))
        var period: DurationArgument?
        @Option(help: ArgumentHelp("How many more failures end the mute: 1 or more.", valueName: "failures"))
        var count: Int?
        @OptionGroup var source: SourceOptions

        func validate() throws {
            try target.check()
            _ = try requestedMute()
        }

        func run() async throws {
            let mute = try requestedMute()
            let id = try await source.apply(.mute(mute), to: target.group)
            print("Muted \(id) \(mute.summary).")
        }

        /// The mute the options ask for, in the CLI's words when they ask for none, both, or too few failures.
        private func requestedMute() throws -> GroupMute {
            switch (period, count) {
            case (let period?, nil): return .period(period.seconds)
            case (nil, let count?):
                guard count >= 1 else {
                    throw ValidationError("--count \(count) must be a whole number of failures, 1 or more.")
                }
                return .occurrences(count)
            default:
                throw ValidationError(
                    "Mute for a period (--for 24h) or until a number of failures (--count 100): give one of the two.")
            }
        }
    }

    /// `decodewatch unmute GROUP`: ends a mute.
    struct Unmute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End the mute of a group.")

        @OptionGroup var target: GroupArgument
        @OptionGroup var source: SourceOptions

        func validate() throws {
            try target.check()
        }

        func run() async throws {
            let id = try await source.apply(.unmute, to: target.group)
            print("Unmuted \(id).")
        }
    }
}

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

        @Argument(
            help: "The group id, or a unique start of it (6 characters or more), as `decodewatch fields` shows it.")
        var group: String
        @Option(name: .customLong("for"), help: "How long, e.g. 90m, 24h, 7d, 2w.") var period: String?
        @Option(help: "How many more failures end the mute.") var count: String?
        @OptionGroup var source: SourceOptions

        func validate() throws {
            do {
                try GroupIDPrefix.check(group)
                _ = try GroupMute.parse(period: period, count: count)
            } catch {
                throw ValidationError(error.message)
            }
        }

        func run() async throws {
            let mute = try GroupMute.parse(period: period, count: count)
            let id = try await source.apply(.mute(mute), to: group)
            print("Muted \(id) \(mute.summary).")
        }
    }

    /// `decodewatch unmute GROUP`: ends a mute.
    struct Unmute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End the mute of a group.")

        @Argument(
            help: "The group id, or a unique start of it (6 characters or more), as `decodewatch fields` shows it.")
        var group: String
        @OptionGroup var source: SourceOptions

        func validate() throws {
            do { try GroupIDPrefix.check(group) } catch { throw ValidationError(error.message) }
        }

        func run() async throws {
            let id = try await source.apply(.unmute, to: group)
            print("Unmuted \(id).")
        }
    }
}

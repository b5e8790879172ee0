import ArgumentParser
import DecodeWatch
import DecodeWatchWire

/// The `decodewatch` executable: the collector, its queries and its digest in one binary.
///
/// `--version` prints ``SDKInfo/decodeWatchVersion``: the SDK, the collector and the CLI are released
/// together, so one constant names all three.
@main
struct DecodeWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decodewatch",
        abstract: "See which backend JSON fields break your app's Codable decoding.",
        version: SDKInfo.decodeWatchVersion,
        subcommands: [
            Serve.self, Fields.self, Digest.self, Resolve.self, Mute.self, Unmute.self, Keys.self, Tokens.self,
            Alerts.self, Demo.self, Contracts.self, Drift.self, Suggest.self, Check.self,
        ])

    /// Runs the command the arguments name, as ArgumentParser's `main` does, after reading a duration typed as
    /// two words (`--for 2 days`) as one.
    static func main() async {
        await main(DurationArgument.joiningUnits(Array(CommandLine.arguments.dropFirst())))
    }
}

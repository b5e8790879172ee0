import ArgumentParser
import DecodeWatch
import DecodeWatchWire
import Foundation

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
            Alerts.self, Demo.self, Contracts.self, Drift.self, Suggest.self, Check.self, Login.self, Logout.self,
            Profiles.self, Issue.self,
        ])

    /// Runs the command the arguments name, as ArgumentParser's `main` does, after two things it does not do:
    /// an unknown subcommand gets the nearest one suggested, as a mistyped flag does, and a duration typed as
    /// two words (`--for 2 days`) is read as one.
    static func main() async {
        let arguments = DurationArgument.joiningUnits(Array(CommandLine.arguments.dropFirst()))
        if let report = UnknownSubcommand.report(arguments: arguments, root: self) {
            FileHandle.standardError.write(Data((report + "\n").utf8))
            exit(withError: ExitCode.validationFailure)
        }
        await main(arguments)
    }
}

import ArgumentParser

/// The `decodewatch` executable: the collector, its queries and its digest in one binary.
@main
struct DecodeWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decodewatch",
        abstract: "See which backend JSON fields break your app's Codable decoding.",
        subcommands: [
            Serve.self, Fields.self, Digest.self, Resolve.self, Mute.self, Unmute.self, Keys.self, Tokens.self,
            Alerts.self, Demo.self, Contracts.self, Drift.self,
        ])
}

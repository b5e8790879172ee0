import ArgumentParser
import DecodeWatchCore
import DecodeWatchStore
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch resolve GROUP`: marks a group resolved; it regresses if it is seen again.
    struct Resolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a group resolved. A report that occurs later marks it regressed.")

        @OptionGroup var target: GroupArgument
        @Flag(help: "Only a version newer than every version seen so far regresses it.") var inNextVersion = false
        @OptionGroup var source: SourceOptions

        func validate() throws {
            try target.check()
        }

        func run() async throws {
            let action: GroupAction = inNextVersion ? .resolveInNextVersion : .resolve
            let id = try await source.apply(action, to: target.group)
            print(inNextVersion ? "Resolved \(id) in the next version." : "Resolved \(id).")
        }
    }
}

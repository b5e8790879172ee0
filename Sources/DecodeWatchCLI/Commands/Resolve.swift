import ArgumentParser
import DecodeWatchCore
import DecodeWatchStore
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch resolve GROUP`: marks a group resolved; it regresses if it is seen again.
    struct Resolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a group resolved. A report that occurs later marks it regressed.")

        @Argument(
            help: "The group id, or a unique start of it (6 characters or more), as `decodewatch fields` shows it.")
        var group: String
        @Flag(help: "Only a version newer than every version seen so far regresses it.") var inNextVersion = false
        @OptionGroup var source: SourceOptions

        func validate() throws {
            do { try GroupIDPrefix.check(group) } catch { throw ValidationError(error.message) }
        }

        func run() async throws {
            let action: GroupAction = inNextVersion ? .resolveInNextVersion : .resolve
            let id = try await source.apply(action, to: group)
            print(inNextVersion ? "Resolved \(id) in the next version." : "Resolved \(id).")
        }
    }
}

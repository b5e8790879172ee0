import ArgumentParser
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
        @OptionGroup var store: StoreOptions

        func validate() throws { try GroupIDPrefix.check(group) }

        func run() async throws {
            let action: GroupAction = inNextVersion ? .resolveInNextVersion : .resolve
            let id = try await GroupIDPrefix.apply(action, to: group, store: store)
            print(inNextVersion ? "Resolved \(id) in the next version." : "Resolved \(id).")
        }
    }
}

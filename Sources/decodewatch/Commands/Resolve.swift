import ArgumentParser
import DecodeWatchStore
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch resolve GROUP`: marks a group resolved; it regresses if it is seen again.
    struct Resolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a group resolved. A report that occurs later marks it regressed.")

        @Argument(help: "The group id, as shown by `decodewatch fields`.") var group: String
        @Flag(help: "Only a version newer than every version seen so far regresses it.") var inNextVersion = false
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let action: GroupAction = inNextVersion ? .resolveInNextVersion : .resolve
            try await store.withStore { try await $0.apply(action, to: group, at: Date()) }
            print(inNextVersion ? "Resolved \(group) in the next version." : "Resolved \(group).")
        }
    }
}

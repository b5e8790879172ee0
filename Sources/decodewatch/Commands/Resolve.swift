import ArgumentParser
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch resolve GROUP`: marks a group resolved; it regresses if it is seen again.
    struct Resolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a group resolved. A report that occurs later marks it regressed.")

        @Argument(help: "The group id, as shown by `decodewatch fields`.") var group: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.withStore { try await $0.resolve(group: group, at: Date()) }
            print("Resolved \(group).")
        }
    }
}

import ArgumentParser
import DecodeWatchCore
import DecodeWatchStore
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch suggest GROUP`: the fix for one breaking field, written (docs/cli.md#suggest).
    struct Suggest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the fix for one group: the Swift change, and a report for the backend team when the "
                + "backend breaks its spec.",
            discussion: "The numbers in the report cover the group's whole life, from when it was first seen.")

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json
        }

        @OptionGroup var target: GroupArgument
        @Option(help: "Output format: text, or json (the group's entry of `fields --format json`).")
        var format: Format = .text
        @OptionGroup var store: StoreOptions
        @OptionGroup var databaseOnly: DatabaseOnlyOptions

        func validate() throws {
            try target.check()
        }

        func run() async throws {
            let now = Date()
            let field = try await store.withStore { store in
                let id = try await store.groupID(startingWith: target.group)
                let since = try await store.storedGroup(id)?.lifecycle.firstSeen ?? now
                guard let field = try await store.judgedField(group: id, since: since, until: now) else {
                    throw NothingToSuggestError(group: id)
                }
                return field
            }
            switch format {
            case .json: print(try CommandJSON.render(field), terminator: "")
            case .text: print(Self.text(field), terminator: "")
            }
        }

        /// The sentence, then the Swift and the report as they are, so each can be copied whole.
        static func text(_ field: FieldSummary) -> String {
            var lines = ["\(field.path) in \(field.endpoint) (\(field.kind.rawValue), group \(field.group))", ""]
            guard let suggestion = field.suggestion else { return lines.joined(separator: "\n") + "\n" }
            lines.append(suggestion.summary)
            if let swift = suggestion.swift { lines += ["", "In the app's model:", "", swift] }
            if let report = suggestion.backendReport {
                lines += ["", "For the backend team (Markdown):", "", report.trimmingCharacters(in: .newlines)]
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}

/// A group whose failures are no longer stored (retention removed them): nothing is left to write a fix from.
struct NothingToSuggestError: Error, CustomStringConvertible {
    let group: String

    var description: String {
        "Group \(group) has no failures left in storage (retention removed them), so there is nothing to suggest from."
    }
}

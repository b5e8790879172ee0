import DecodeWatchCore
import Foundation

/// The distinct strings of one kind in a commit (versions, expected types, endpoints), sorted, so that a
/// string's position orders cells as the string would.
/// Values are told apart and sorted by their bytes (``ExactText``), as the databases tell them apart: two versions
/// that are only canonically equivalent are two rows.
struct SortedValues: Sendable {
    let values: [String]
    private let positions: [ExactText: Int]

    init(_ values: some Sequence<String>) {
        let sorted = Set(values.lazy.map(ExactText.init)).sorted()
        self.values = sorted.map(\.text)
        positions = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0) })
    }

    /// The position of a string of the commit.
    subscript(_ value: String) -> Int {
        guard let position = positions[ExactText(value)] else { preconditionFailure("Not a value of the commit") }
        return position
    }
}

/// A commit's versions, environments, expected types and endpoints, which the cells of both resolutions name by position.
struct CommitValues: Sendable {
    let versions: SortedValues
    let environments: SortedValues
    let expected: SortedValues
    let endpoints: SortedValues

    init(_ batches: [BatchAggregate]) {
        versions = SortedValues(batches.map(\.version))
        environments = SortedValues(batches.map(\.environment))
        var expected: [String] = []
        for batch in batches.indices {
            for delta in batches[batch].groups.indices {
                for entry in batches[batch].groups[delta].counts {
                    if let value = entry.expected { expected.append(value) }
                }
            }
        }
        self.expected = SortedValues(expected)
        endpoints = SortedValues(batches.lazy.flatMap(\.decodes).map(\.endpoint))
    }
}

import DecodeWatchCore

/// A group (by its position among a commit's groups), a UTC day and an OS version: a key of `group_day_os`.
struct OSDay: Hashable, Comparable {
    let group: Int
    let day: Int64
    let os: String

    static func < (a: OSDay, b: OSDay) -> Bool {
        (a.group, a.day, ExactText(a.os)) < (b.group, b.day, ExactText(b.os))
    }
}

/// A rollup row's key: a group (by its position among the commit's sorted ids) or, for decode counts, an
/// app (and for decode counts per version, an ``AppVersion``); a bucket; for the cells kept per environment, an
/// environment; and a value (by its position among the commit's sorted values of its kind) or an install hash.
/// Keys compare as integers, in the order of the ids, buckets, environments and values they stand for.
struct Cell<ID: Comparable & Sendable>: Comparable, Sendable {
    let id: ID
    let bucket: Int64
    /// The environment's position among the commit's, for the cells kept per environment; 0 for the others.
    var environment = 0
    var value = 0
    var install: Int64 = 0

    init(_ id: ID, _ bucket: Int64, environment: Int = 0, _ value: Int = 0, install: Int64 = 0) {
        self.id = id
        self.bucket = bucket
        self.environment = environment
        self.value = value
        self.install = install
    }

    static func < (a: Cell, b: Cell) -> Bool {
        (a.id, a.bucket, a.environment, a.value, a.install) < (b.id, b.bucket, b.environment, b.value, b.install)
    }
}

/// A group (by its position among the commit's sorted ids) and an environment, ordered as the id and name are.
struct GroupEnvironment: Hashable, Comparable {
    let group: Int
    let environment: String

    static func < (a: GroupEnvironment, b: GroupEnvironment) -> Bool {
        (a.group, ExactText(a.environment)) < (b.group, ExactText(b.environment))
    }
}

/// An app and one of the commit's versions (by its position among them): the key of decode counts per version,
/// ordered as the app and version it stands for.
struct AppVersion: Comparable, Sendable {
    let app: String
    let version: Int

    static func < (a: AppVersion, b: AppVersion) -> Bool { (a.app, a.version) < (b.app, b.version) }
}

/// Adds up the counts of equal cells by sorting them: the rows go out sorted anyway. Adding them up in
/// dictionaries and then sorting their keys cost more, most of it hashing.
func tally<ID>(_ entries: [(cell: Cell<ID>, count: Int)]) -> [(cell: Cell<ID>, count: Int)] {
    var result: [(cell: Cell<ID>, count: Int)] = []
    result.reserveCapacity(entries.count)
    for entry in entries.sorted(by: { $0.cell < $1.cell }) {
        if let last = result.last, last.cell == entry.cell {
            result[result.count - 1].count = last.count.addingSaturating(entry.count)
        } else {
            result.append(entry)
        }
    }
    return result
}

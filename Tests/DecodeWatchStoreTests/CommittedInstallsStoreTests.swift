import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// A store leaves out of a commit the install rows it already committed to recent cells: installs stay counted
/// exactly, whichever rows are left out.
@Suite struct CommittedInstallsStoreTests {
    /// The start of the minute two minutes ago: a recent cell, so rows committed to it are remembered.
    static let minute = Minute.index(of: Date()) - 2
    static let time = RFC3339.string(from: Date(timeIntervalSince1970: TimeInterval(minute * 60)))

    /// That minute alone (read from the per-minute cells) and its whole hour (from the hourly cells).
    static let windows =
        [(start: Date(timeIntervalSince1970: TimeInterval(minute * 60)), length: 60.0)]
        + [(start: Hour.start(of: Minute.hour(of: minute)), length: 3600.0)]

    static func installs(_ fixture: StoreFixture) async throws -> [Int] {
        var installs: [Int] = []
        for window in windows {
            let query = FieldsQuery(since: window.start, until: window.start.addingTimeInterval(window.length))
            installs.append(try await fixture.store.fields(query).fields.first?.installs ?? 0)
        }
        return installs
    }

    @Test(
        "an install sending again into its cells counts once, and a new install in the same cells still counts",
        arguments: StoreBackend.allCases)
    func repeatedAndNewInstalls(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(at: Self.time, install: "install-a")
            try await fixture.send(at: Self.time, install: "install-a")
            try await fixture.send(at: Self.time, install: "install-b")
            try await fixture.send(at: Self.time, install: "install-a")
            #expect(try await Self.installs(fixture) == [2, 2])
            #expect(try await fixture.database.count("group_minute_installs") == 2)
            #expect(try await fixture.database.count("group_hour_installs") == 2)
        }
    }

    @Test(
        "an install's rows are written again once retention deleted its cells", arguments: StoreBackend.allCases)
    func rowsReturnAfterRetention(backend: StoreBackend) async throws {
        try await backend.withFreshDatabase { fixture in
            try await fixture.send(at: Self.time, install: "install-a")
            // Per-minute cells go up to an hour from now; the hourly ones and the group stay.
            while try await fixture.store.deleteExpired(
                before: .distantPast, minutesBefore: Date().addingTimeInterval(3600), limit: 100) > 0
            {}
            #expect(try await fixture.database.count("group_minute_installs") == 0)
            try await fixture.send(at: Self.time, install: "install-a")
            #expect(try await Self.installs(fixture) == [1, 1])
            #expect(try await fixture.database.count("group_minute_installs") == 1)
        }
    }
}

import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

/// The rollups a store folds (per minute, hour and day, per version, install and environment) answer exactly what a
/// plain table of one row per accepted report answers, over realistic batches sent by concurrent clients to two
/// stores on one database, on both back ends, acknowledged after the rollups are written or from the log.
@Suite("Folded rollups against one row per report")
struct RollupDifferentialTests {
    @Test(
        "counts, versions and installs of every group, in every environment and window, match one row per report",
        arguments: StoreBackend.allCases, StoreMode.allCases)
    func rollupsMatchReference(backend: StoreBackend, mode: StoreMode) async throws {
        // Four whole hours ending a day ago, so that every minute row is still kept.
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 3600).rounded(.down) * 3600 - 28 * 3600)
        var generator = RealisticBatches(seed: 43, start: start)
        let bodies = try (0..<48).map { _ in try generator.next() }
        let receivedAt = start.addingTimeInterval(5 * 3600)
        var reference = ReportRows()
        var batches: [ReceivedBatch] = []
        for body in bodies {
            let validated = try BatchValidator().validate(body, receivedAt: receivedAt)
            reference.add(validated)
            batches.append(
                ReceivedBatch(
                    BatchAggregate(validated, redactor: Redactor()),
                    source: BatchSource(body: body, encoding: .identity)
                ))
        }
        let sent = batches
        try await backend.withFreshDatabase(mode: mode) { fixture in
            let stores = [fixture.opened, try await fixture.reopen()]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<4 {
                    group.addTask {
                        for index in stride(from: client, to: sent.count, by: 4) {
                            let outcome = try await stores[client % 2].sink.commit(sent[index])
                            #expect(outcome == .stored)
                        }
                    }
                }
                try await group.waitForAll()
            }
            // Whole hours, and a window whose edges fall inside hours (read from per-minute rows).
            for (since, until) in [
                (start, start.addingTimeInterval(4 * 3600)),
                (start.addingTimeInterval(17 * 60), start.addingTimeInterval(3 * 3600 + 43 * 60)),
            ] {
                for environment in [nil, "production", "staging"] {
                    let query = FieldsQuery(
                        environment: environment, since: since, until: until, limit: FieldsQuery.maxLimit)
                    let stored = try await stores[1].store.fields(query).fields
                    let expected = reference.groups(environment: environment, since: since, until: until)
                    let window = "\(environment ?? "every environment"), \(since) to \(until)"
                    #expect(Set(stored.map(\.group)) == Set(expected.keys), "\(window)")
                    for field in stored {
                        guard let want = expected[field.group] else { continue }
                        #expect(field.count == want.count, "\(field.path) \(window)")
                        #expect(field.versions == want.versions, "\(field.path) \(window)")
                        #expect(field.installs == want.installs.count, "\(field.path) \(window)")
                    }
                }
            }
        }
    }
}

/// The reference: one row per accepted report, summed by scanning them all.
private struct ReportRows {
    struct Row {
        let group: String
        let occurredAt: Date
        let count: Int
        let version: String?
        let install: String?
        let environment: String
    }

    /// One group's answer.
    struct Group {
        var count = 0
        var versions: [String: Int] = [:]
        var installs: Set<String> = []
    }

    private var rows: [Row] = []

    mutating func add(_ batch: ValidatedBatch) {
        for accepted in batch.accepted {
            rows.append(
                Row(
                    group: accepted.key.id, occurredAt: accepted.report.occurredAt, count: accepted.report.count,
                    version: batch.app.version, install: batch.installID, environment: batch.environment))
        }
    }

    func groups(environment: String?, since: Date, until: Date) -> [String: Group] {
        var groups: [String: Group] = [:]
        for row in rows where row.occurredAt >= since && row.occurredAt < until {
            if let environment, row.environment != environment { continue }
            groups[row.group, default: Group()].count += row.count
            if let version = row.version {
                groups[row.group, default: Group()].versions[version, default: 0] += row.count
            }
            if let install = row.install { groups[row.group, default: Group()].installs.insert(install) }
        }
        return groups
    }
}

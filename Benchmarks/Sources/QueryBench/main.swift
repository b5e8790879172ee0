import BenchmarkSupport
import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchStorePostgres
import DecodeWatchStoreSQLite
import Foundation

// Usage: QueryBench [REPORTS] [GROUPS] [RUNS] [--db PATH] [--postgres URL]   (defaults 10000000 10000 21)
//
// Seeds a fresh SQLite store (and, with --postgres, a fresh schema of that PostgreSQL) with REPORTS reports in
// GROUPS groups over the last 7 days, through the real validator, folding and ingest, then times the
// breaking-fields summary (24 h, the last 15 minutes, 7 d) and the digest, RUNS times each after one warm-up,
// and prints p50 and p90.
//
// The data is dense, like a field that breaks for everyone: in the last 24 hours nine groups in ten fail in
// each hour, each at three random minutes; before that six in ten, once an hour. Reports carry a `count`, so
// 10 million reports are about 1.5 million report entries. With --db PATH the SQLite file is kept, and
// reused when it exists (its data then ages with the clock). A --postgres URL naming a schema (`&schema=NAME`)
// is measured as it is, without seeding: name one that an earlier run seeded and printed.

/// The benchmark's settings, from the command line.
struct Settings {
    var reports = 10_000_000
    var groups = 10_000
    var runs = 21
    var dbPath: String?
    var postgresURL: String?

    init(_ arguments: [String]) {
        var positional: [Int] = []
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--db": dbPath = iterator.next()
            case "--postgres": postgresURL = iterator.next()
            default:
                guard let number = Int(argument.replacingOccurrences(of: "_", with: "")) else {
                    fatalError(
                        "Unexpected argument \(argument); usage: QueryBench [REPORTS] [GROUPS] [RUNS] [--db PATH]")
                }
                positional.append(number)
            }
        }
        reports = positional.first ?? reports
        groups = positional.dropFirst().first ?? groups
        runs = positional.dropFirst(2).first ?? runs
    }
}

let settings = Settings(Array(CommandLine.arguments.dropFirst()))
let reportTarget = settings.reports
let groupCount = settings.groups
let runs = settings.runs

/// The draws this benchmark makes, from a generator seeded the same on every run.
extension SplitMix64 {
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// One report entry: a group, a time in seconds before `now`, a count.
struct Entry {
    var group: Int32
    var ago: Int32
    var count: Int32
}

let apps = ["com.example.shop", "com.example.news", "com.example.bank", "com.example.maps"]
let endpointCount = 50

/// The entries, their counts summing to `reportTarget`: heavier groups fail more often and in bigger counts.
func makeEntries() -> [Entry] {
    var random = SplitMix64(seed: 9)
    let weights = (0..<groupCount).map { _ in 1 + random.below(20) * random.below(20) }
    var entries: [Entry] = []
    entries.reserveCapacity(groupCount * 160)
    for hour in 0..<(7 * 24) {
        let (percent, perHour) = hour < 24 ? (90, 3) : (60, 1)
        for group in 0..<groupCount where random.chance(percent) {
            for _ in 0..<perHour {
                entries.append(Entry(group: Int32(group), ago: Int32(hour * 3600 + 1 + random.below(3598)), count: 0))
            }
        }
    }
    let raw = entries.map { weights[Int($0.group)] * (1 + random.below(4)) }
    let total = raw.reduce(0, +)
    var assigned = 0
    for index in entries.indices {
        let count = max(1, raw[index] * reportTarget / total)
        entries[index].count = Int32(count)
        assigned += count
    }
    // The rounding remainder, spread one by one.
    var index = 0
    while assigned < reportTarget {
        entries[index % entries.count].count += 1
        assigned += 1
        index += 7919
    }
    return entries
}

/// Builds the validated batches of one app: 1,000 entries each, in time order, each from one install.
func batches(of entries: [Entry], app: String, now: Date, random: inout SplitMix64) throws -> [BatchAggregate] {
    let validator = BatchValidator()
    var result: [BatchAggregate] = []
    for start in stride(from: 0, to: entries.count, by: 1000) {
        let chunk = entries[start..<min(start + 1000, entries.count)]
        let newest = chunk.map(\.ago).min() ?? 0
        let sentAt = now.addingTimeInterval(-Double(newest))
        var endpoints = Set<Int>()
        let reports: [[String: Any]] = chunk.map { entry in
            let group = Int(entry.group)
            let endpoint = (group / apps.count) % endpointCount
            endpoints.insert(endpoint)
            let field = group / (apps.count * endpointCount)
            return [
                "occurred_at": RFC3339.string(from: now.addingTimeInterval(-Double(entry.ago))),
                "endpoint": "GET /v2/resource\(endpoint)", "path": ["items", 0, "field\(field)"] as [Any],
                "kind": field % 2 == 0 ? "keyNotFound" : "typeMismatch", "type": "Item",
                "expected": group % 3 == 0 ? "Int" : "String", "count": Int(entry.count),
                "message": "No value associated with key field\(field).", "snippet": "{\"id\":\(group)}",
            ]
        }
        // Versions move forward with time: older data mostly from older releases.
        let age = Int(newest) / 86_400
        let version = ["5.3.0", "5.2.0", "5.1.0"][min(2, (age + random.below(3)) / 3)]
        let body: [String: Any] = [
            "batch_id": UUID().uuidString, "sent_at": RFC3339.string(from: sentAt),
            "app": ["id": app, "platform": "iOS", "version": version],
            "install_id": "install-\(random.below(5000))", "reports": reports,
            "decodes": endpoints.sorted().map { ["endpoint": "GET /v2/resource\($0)", "count": 20_000] },
        ]
        let batch = try validator.validate(try JSONSerialization.data(withJSONObject: body), receivedAt: now)
        result.append(BatchAggregate(batch, redactor: Redactor()))
    }
    return result
}

let clock = ContinuousClock()

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Seeds a store through its ingest, 16 batches (16,000 entries) per commit.
func seed(_ store: some ReportStore, name: String) async throws {
    let now = Date()
    let start = clock.now
    let entries = makeEntries()
    var random = SplitMix64(seed: 17)
    var written = 0
    for (appIndex, app) in apps.enumerated() {
        let ofApp = entries.filter { Int($0.group) % apps.count == appIndex }.sorted { $0.ago > $1.ago }
        let all = try batches(of: ofApp, app: app, now: now, random: &random)
        for commit in stride(from: 0, to: all.count, by: 16) {
            _ = try await store.ingest(Array(all[commit..<min(commit + 16, all.count)]))
        }
        written += ofApp.count
    }
    let reports = entries.reduce(0) { $0 + Int($1.count) }
    print(
        "\(name): seeded \(reports) reports (\(written) entries) in \(groupCount) groups over 7 days in "
            + String(format: "%.1f s", seconds(clock.now - start)))
}

/// Times a call `runs` times after one warm-up; prints p50 and p90 in milliseconds.
func time(_ name: String, _ body: () async throws -> String) async throws {
    let detail = try await body()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = clock.now
        _ = try await body()
        times.append(seconds(clock.now - start) * 1000)
    }
    times.sort()
    let p90 = times[min(times.count - 1, Int((Double(times.count) * 0.9).rounded(.up)) - 1)]
    print(
        "  \(name.padding(toLength: 38, withPad: " ", startingAt: 0))"
            + String(format: "p50 %8.1f ms  p90 %8.1f ms", times[times.count / 2], p90) + "  (\(detail))")
}

/// Times the summary over three windows and the digest of the last 24 hours.
func measure(_ store: some FieldReads & GroupActionStore, name: String) async throws {
    print("\(name), \(runs) runs each after a warm-up:")
    for (label, since) in [("fields 24h (default, limit 50)", nil), ("fields since=15m", "15m"), ("fields 7d", "7d")] {
        try await time(label) {
            let query = try FieldsQuery.parse(
                app: nil, endpoint: nil, kind: nil, since: since, until: nil, limit: nil, now: Date())
            let summary = try await store.fields(query)
            return "\(summary.fields.count) fields, top \(summary.fields.first?.count ?? 0)"
        }
    }
    try await time("digest (last 24 h vs the 24 h before)") {
        let now = Date()
        let digest = try await store.digestWithoutMuted(
            for: try DigestPeriod.parse(since: "24h", now: now), now: now)
        return "\(digest.totals.groups) groups, \(digest.totals.count) reports"
    }
}

/// Seeds (or reopens) the SQLite store and measures it, then PostgreSQL when a URL is given.
func run() async throws {
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-\(UUID().uuidString)")
    let path = settings.dbPath ?? temporary.appendingPathComponent("bench.sqlite").path
    let reuse = FileManager.default.fileExists(atPath: path)
    if settings.dbPath == nil {
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }
    defer { try? FileManager.default.removeItem(at: temporary) }
    let opening = clock.now
    let sqlite = try SQLiteReportStore(path: path)
    if reuse {
        _ = try await sqlite.checkReadiness()
        print(
            "SQLite: reusing \(path), opened and migrated in " + String(format: "%.1f s", seconds(clock.now - opening)))
    } else {
        try await seed(sqlite, name: "SQLite")
    }
    try await measure(sqlite, name: "SQLite")

    if let postgresURL = settings.postgresURL {
        var configuration = try PostgresStoreConfiguration(url: postgresURL)
        let reuse = configuration.schema != nil
        if !reuse { configuration.schema = "query_bench_\(UInt32.random(in: 0...UInt32.max))" }
        let postgres = PostgresReportStore(configuration: configuration)
        let pool = Task { try await postgres.run() }
        if reuse {
            _ = try await postgres.checkReadiness()
            print("PostgreSQL: reusing schema \(configuration.schema ?? "")")
        } else {
            try await seed(postgres, name: "PostgreSQL (schema \(configuration.schema ?? ""))")
        }
        try await measure(postgres, name: "PostgreSQL")
        pool.cancel()
    }
}

try await run()

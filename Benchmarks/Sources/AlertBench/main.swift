import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchStoreSQLite
import Foundation

// Usage: AlertBench [GROUPS] [RULES] [RUNS] [WINDOWS]   (defaults 10000 20 30 1)
//
// Seeds a fresh SQLite store with GROUPS groups failing in the last 10 minutes (through the real validator
// and folding), adds RULES rules over WINDOWS distinct windows (10m, then 5m and 1h), then times one
// alert evaluation as `serve` runs it: read the rollups once per distinct window and match every rule
// (`pendingAlerts`); and separately the in-memory matching alone and the first evaluation's claims.

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let groupCount = arguments.first ?? 10_000
let ruleCount = arguments.dropFirst().first ?? 20
let runs = arguments.dropFirst(2).first ?? 30
let windowCount = min(3, max(1, arguments.dropFirst(3).first ?? 1))

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alert-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let store = try SQLiteReportStore(path: folder.appendingPathComponent("bench.sqlite").path)

let now = Date()
let endpoints = ["GET /v2/posts", "GET /v2/users/{id}", "GET /v2/feed", "POST /v1/orders"]
let validator = BatchValidator()
for start in stride(from: 0, to: groupCount, by: 1000) {
    let reports: [[String: Any]] = (start..<min(start + 1000, groupCount)).map { (index: Int) -> [String: Any] in
        let path: [Any] = ["results", 0, "field\(index)"]
        let kind = index % 2 == 0 ? "keyNotFound" : "typeMismatch"
        let occurred = RFC3339.string(from: now.addingTimeInterval(-Double(index % 500)))
        return [
            "occurred_at": occurred, "endpoint": endpoints[index % 4], "path": path, "kind": kind,
            "expected": "String", "count": 1 + index % 50,
        ]
    }
    let body: [String: Any] = [
        "batch_id": UUID().uuidString, "app": ["id": "com.example.shop", "version": "5.2.\(start % 3)"],
        "install_id": "install-\(start)", "reports": reports,
        "decodes": endpoints.map { ["endpoint": $0, "count": 200_000] },
    ]
    let batch = try validator.validate(try JSONSerialization.data(withJSONObject: body), receivedAt: now)
    _ = try await store.ingest(BatchAggregate(batch, redactor: Redactor()))
}

let conditions = ["new", "regressed", "count-above:40", "rate-above:0.02", "count-above:10"]
let windows = Array(["10m", "5m", "1h"].prefix(windowCount))
let rules = try (0..<ruleCount).map { index in
    try AlertRuleDraft(
        name: "rule \(index)", endpoint: index % 3 == 0 ? endpoints[index % 4] : nil,
        kind: index % 4 == 1 ? "typeMismatch" : nil, when: conditions[index % conditions.count],
        over: windows[index % windows.count], webhook: "https://hooks.example.com/bench"
    ).validate(now: now)
}

let clock = ContinuousClock()
func median(_ body: () async throws -> Void) async rethrows -> Duration {
    var times: [Duration] = []
    for _ in 0..<runs {
        let start = clock.now
        try await body()
        times.append(clock.now - start)
    }
    return times.sorted()[times.count / 2]
}

var matched = 0
let evaluation = try await median {
    matched = try await store.pendingAlerts(for: rules, now: now).reduce(0) { $0 + $1.groups.count }
}
let candidates = try await store.alertCandidates(windows: [600], environment: nil, until: now, now: now)[600] ?? []
let matching = await median {
    var count = 0
    for rule in rules { count += AlertMatcher.matches(rule, in: candidates).count }
    precondition(count >= 0)
}
let pending = try await store.pendingAlerts(for: rules, now: now)
let claimStart = clock.now
var claimed = 0
for alert in pending {
    claimed += try await store.claimAlert(alert, token: UUID().uuidString, cooldown: 3600, publicURL: nil)?.total ?? 0
}
let claiming = clock.now - claimStart

func ms(_ duration: Duration) -> String {
    String(
        format: "%.1f ms", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000)
}
print(
    "groups in the 10m window: \(candidates.count), rules: \(rules.count), windows: \(Set(rules.map(\.window)).count)")
print("evaluation (read rollups + match), median of \(runs): \(ms(evaluation)); \(matched) rule-group matches")
print("matching alone, 20 rules over the 10m window, median of \(runs): \(ms(matching))")
print("first evaluation's claims and alert details (\(claimed) groups over \(pending.count) alerts): \(ms(claiming))")

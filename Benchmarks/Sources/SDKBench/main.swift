import DecodeWatch
import Foundation

// The SDK's overhead: decoding 10,000 valid objects as [Safe<Post>] versus plain [Post], and the
// cost of the failure path per report (capture, snippet, redaction, folding), in one process.

struct Post: Decodable {
    let id: Int
    let title: String
    let body: String
    let author: Author
    let tags: [String]
    let url: URL
}

struct Author: Decodable {
    let login: String
    let followers: Int
}

func payload(count: Int, brokenEvery: Int?) -> Data {
    let items = (0..<count).map { i -> String in
        let title = brokenEvery.map { i % $0 == 0 } == true ? "" : #""title":"Post \#(i)","#
        return
            #"{"id":\#(i),\#(title)"body":"Lorem ipsum dolor sit amet \#(i)","author":{"login":"user\#(i % 97)","followers":\#(i % 1000)},"tags":["swift","json"],"url":"https://example.com/posts/\#(i)"}"#
    }
    return Data(("[" + items.joined(separator: ",") + "]").utf8)
}

func measure(_ label: String, runs: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()  // warm up
    var best = Double.infinity
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    print(String(format: "%@: %.2f ms (best of %d)", label, best, runs))
    return best
}

let valid = payload(count: 10_000, brokenEvery: nil)
let broken = payload(count: 10_000, brokenEvery: 10)
let reporter = Reporter(
    configuration: ReporterConfiguration(
        collectorURL: URL(string: "http://127.0.0.1:9")!, app: AppInfo(id: "bench"), maxBufferedReports: 100_000,
        spoolDirectory: nil))
let decoder = JSONDecoder()

let plain: Double = try measure("[Post], 10,000 valid", runs: 15) { _ = try decoder.decode([Post].self, from: valid) }
let safe: Double = try measure("[Safe<Post>], 10,000 valid", runs: 15) {
    _ = try decoder.decode([Safe<Post>].self, from: valid)
}
let reported: Double = try measure("[Safe<Post>], 10,000 valid, with a DecodeWatch context", runs: 15) {
    _ = try decoder.decode([Safe<Post>].self, from: valid, endpoint: "GET /v2/posts", reporter: reporter)
}
print(
    String(
        format: "overhead: %.1f%% without context, %.1f%% with context", (safe / plain - 1) * 100,
        (reported / plain - 1) * 100))
let failing: Double = try measure("[Safe<Post>], 10,000 with 1,000 failures reported", runs: 9) {
    _ = try decoder.decode([Safe<Post>].self, from: broken, endpoint: "GET /v2/posts", reporter: reporter)
}
let noFailure: Double = try measure("[Safe<Post>], same payload size, no failures", runs: 9) {
    _ = try decoder.decode([Safe<Post>].self, from: valid, endpoint: "GET /v2/posts", reporter: reporter)
}
print(String(format: "failure path: %.1f µs per reported failure", (failing - noFailure) * 1000.0 / 1000.0))

// A field broken in every element: 10,000 failures of one field fold into one report (one snippet).
let allBroken = payload(count: 10_000, brokenEvery: 1)
let everyElement: Double = try measure("[Safe<Post>], 10,000 all missing their title", runs: 9) {
    _ = try decoder.decode([Safe<Post>].self, from: allBroken, endpoint: "GET /v2/posts", reporter: reporter)
}
let everyElementUnreported: Double = try measure("[Safe<Post>], 10,000 all missing their title, no context", runs: 9) {
    _ = try decoder.decode([Safe<Post>].self, from: allBroken)
}
print(
    String(
        format: "a field broken in all 10,000 elements: %.1f ms of reporting (%d report, count %d)",
        everyElement - everyElementUnreported, reporter.pendingReports().filter { $0.count >= 10_000 }.count,
        reporter.pendingReports().map(\.count).max() ?? 0))

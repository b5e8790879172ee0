import DecodeWatchCore
import Foundation

/// The alert `decodewatch alerts test` sends: a made-up group in the rule's scope, marked as a test.
enum SampleAlert {
    /// A sample for a rule.
    static func make(for rule: AlertRule, now: Date, publicURL: URL?) -> Alert {
        let summary = FieldSummary(
            group: "0000000000000000", app: rule.app ?? "com.example.shop", endpoint: rule.endpoint ?? "GET /v2/posts",
            path: "$.results[*].title", kind: rule.kind ?? .keyNotFound, expected: "String", count: 42, installs: 17,
            rate: 0.031, firstSeen: now.addingTimeInterval(-300), lastSeen: now,
            versions: ["5.2.0": 40, "5.1.0": 2], status: .new,
            sample: Sample(snippet: #"{"id":"pos_2"}"#, message: "No value associated with key title."))
        return Alert(
            rule: rule, firedAt: now, since: now.addingTimeInterval(-rule.window), until: now,
            fields: [AlertField(summary: summary, url: AlertField.page(of: summary.group, under: publicURL))], total: 1,
            isTest: true)
    }
}

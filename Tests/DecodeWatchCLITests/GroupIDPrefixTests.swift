import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Group ids by a unique start")
struct GroupIDPrefixTests {
    static let app = "com.example.shop"
    static let endpoint = "GET /v1/items"

    @Test(
        "a unique start of 6+ characters finds the group, an ambiguous one lists the candidates, a short one is refused",
        arguments: Storage.allCases)
    func prefixes(storage: Storage) async throws {
        try await CLI.withCollector(on: storage) { db, port, session in
            try await Self.checkPrefixes(db: db, port: port, session: session)
        }
    }

    @Test("the same prefixes work through a collector's API with --url, with the same answers")
    func prefixesThroughTheAPI() async throws {
        try await CLI.withCollector(on: .sqlite) { _, port, session in
            try await Self.checkPrefixes(db: ["--url", "http://127.0.0.1:\(port)"], port: port, session: session)
        }
    }

    /// - Parameter db: the flags that say where `fields`, `resolve`, `mute` and `unmute` get their answers.
    static func checkPrefixes(db: [String], port: Int, session: URLSession) async throws {
        let (twins, other) = keys()
        #expect(try await post(["f\(twins.0)", "f\(twins.1)", other], port: port, session: session) == 202)
        let ids = [twins.0, twins.1].map { id(path: "f\($0)") }
        let otherID = id(path: other)
        let window = ["--since", "2026-11-21T09:00:00Z", "--until", "2026-11-21T10:00:00Z"]
        let stored = try JSONDecoder().decode(
            FieldsSummary.self, from: Data(try CLI.run(["fields", "--format", "json"] + db + window).output.utf8))
        #expect(Set(stored.fields.map(\.group)) == Set(ids + [otherID]))

        let table = try CLI.run(["fields"] + db + window).output
        #expect(table.contains(String(otherID.prefix(12)) + " "), "\(table)")
        #expect(!table.contains(otherID), "\(table)")

        let unique = try CLI.run(["resolve", String(otherID.prefix(12)).uppercased()] + db)
        #expect(unique.status == 0, "\(unique.error)")
        #expect(unique.output == "Resolved \(otherID).\n")
        let muted = try CLI.run(["mute", String(ids[0].prefix(10)), "--for", "1h"] + db)
        #expect(muted.status == 0, "\(muted.error)")
        #expect(muted.output == "Muted \(ids[0]) for 1h.\n")

        let shared = String(ids[0].prefix(6))
        let ambiguous = try CLI.run(["resolve", shared] + db)
        #expect(ambiguous.status != 0)
        #expect(
            ambiguous.error.contains("'\(shared)' matches several groups; give more of the id:"), "\(ambiguous.error)")
        for (id, path) in zip(ids, ["f\(twins.0)", "f\(twins.1)"]) {
            let line = ambiguous.error.split(separator: "\n").first { $0.contains(id) }
            #expect(line?.contains(endpoint) == true && line?.contains("$.\(path)") == true, "\(ambiguous.error)")
        }
        let after = try JSONDecoder().decode(
            FieldsSummary.self, from: Data(try CLI.run(["fields", "--format", "json"] + db + window).output.utf8))
        #expect(after.fields.filter { $0.status == .resolved }.map(\.group) == [otherID])

        for short in ["abcde", String(otherID.prefix(5))] {
            let refused = try CLI.run(["resolve", short] + db)
            #expect(refused.status == 64)
            #expect(refused.error.contains("The group id '\(short)' is too short: give at least 6"), "\(refused.error)")
        }
        let none = try CLI.run(["unmute", "ffffffffffff"] + db)
        #expect(none.status != 0)
        #expect(none.error.contains("No group has the id 'ffffffffffff'"), "\(none.error)")
    }

    /// Two keys whose ids share their first 6 characters (found by trying keys `f0`, `f1`, …) and one key
    /// whose id shares no more than 3 with either.
    static func keys() -> (twins: (Int, Int), other: String) {
        var seen: [Substring: Int] = [:]
        var index = 0
        while true {
            let start = id(path: "f\(index)").prefix(6)
            if let earlier = seen[start] {
                let twins = [earlier, index].map { id(path: "f\($0)") }
                let other = (0...).lazy.map { "g\($0)" }.first { candidate in
                    twins.allSatisfy { !$0.hasPrefix(id(path: candidate).prefix(4)) }
                }!
                return ((earlier, index), other)
            }
            seen[start] = index
            index += 1
        }
    }

    static func id(path key: String) -> String {
        GroupKey(app: app, endpoint: endpoint, path: PathRenderer.render([.key(key)]), kind: .keyNotFound).id
    }

    /// Posts one batch with a keyNotFound report per key, in the hour from 2026-11-21T09:00Z.
    static func post(_ keys: [String], port: Int, session: URLSession) async throws -> Int {
        let reports = keys.map { key -> [String: Any] in
            [
                "occurred_at": "2026-11-21T09:01:00Z", "endpoint": endpoint, "type": "Item", "path": [key],
                "kind": "keyNotFound", "message": "No value associated with key \(key).",
            ]
        }
        let batch: [String: Any] = [
            "batch_id": UUID().uuidString.lowercased(), "sent_at": "2026-11-21T09:05:00Z",
            "app": ["id": app, "version": "1.0.0", "platform": "iOS"], "install_id": "install-1", "reports": reports,
        ]
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/reports")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: batch)
        let (_, response) = try await session.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}

import DecodeWatchCore
import Foundation
import Testing

/// `POST /v1/groups/{group}/{resolve-in-next-version,mute,unmute}`, `GET /v1/groups/{group}`, and query
/// strings as browsers' forms encode them.
@Suite("Group actions API")
struct GroupActionsAPITests {
    @Test("GET /v1/fields reads + as a space, as forms send it (was 400 for endpoint=GET+%2Fv2%2Fposts)")
    func plusIsSpace() async throws {
        try await TestCollector.run { collector in
            _ = try await collector.ingest(Batches.batch(reports: [Batches.report()]))
            let plus = try await collector.fields("endpoint=GET+%2Fv2%2Fposts&since=24h")
            let encoded = try await collector.fields("endpoint=GET%20%2Fv2%2Fposts")
            #expect(plus.fields.count == 1)
            #expect(plus.fields == encoded.fields)
            #expect(try await collector.fields("app=com.example+shop").fields.isEmpty)
        }
    }

    @Test("mute for a period, then unmute: the group's decisions answer each time and keep a history")
    func muteAndUnmute() async throws {
        try await TestCollector.run { collector in
            _ = try await collector.ingest(Batches.batch(reports: [Batches.report()]))
            let group = try #require(try await collector.fields().fields.first?.group)
            let muted = try await collector.send("POST", "/v1/groups/\(group)/mute?for=24h")
            #expect(muted.status == 200)
            #expect(muted.json["muted"] as? Bool == true)
            #expect(muted.json["muted_until"] is String)
            let shown = try await collector.send("GET", "/v1/groups/\(group)")
            #expect(shown.json["muted"] as? Bool == true)
            let unmuted = try await collector.send("POST", "/v1/groups/\(group)/unmute")
            #expect(unmuted.json["muted"] as? Bool == false)
            let history = try #require(unmuted.json["history"] as? [[String: Any]])
            #expect(history.map { $0["action"] as? String } == ["mute", "unmute"])
            #expect(history.first?["detail"] as? String == "for 24h")
        }
    }

    @Test("mute with a bad or missing length is a 400 naming what is wrong")
    func badMute() async throws {
        try await TestCollector.run { collector in
            _ = try await collector.ingest(Batches.batch(reports: [Batches.report()]))
            let group = try #require(try await collector.fields().fields.first?.group)
            for query in ["", "?for=soon", "?count=-1", "?for=1h&count=3"] {
                let answer = try await collector.send("POST", "/v1/groups/\(group)/mute\(query)")
                #expect(answer.status == 400, "\(query)")
                #expect(answer.errorCode == "invalid_query", "\(query)")
            }
            let unknown = try await collector.send("POST", "/v1/groups/0123456789abcdef/unmute")
            #expect(unknown.status == 404)
        }
    }

    @Test("group paths take a unique start of 6+ characters and answer the full id; short or non-hex starts are 400")
    func idPrefixes() async throws {
        try await TestCollector.run { collector in
            _ = try await collector.ingest(Batches.batch(reports: [Batches.report()]))
            let group = try #require(try await collector.fields().fields.first?.group)
            let muted = try await collector.send("POST", "/v1/groups/\(group.prefix(6).uppercased())/mute?count=2")
            #expect(muted.status == 200)
            #expect(muted.json["group"] as? String == group)
            let resolved = try await collector.send("POST", "/v1/groups/\(group.prefix(12))/resolve")
            #expect(resolved.json["group"] as? String == group)
            for bad in [String(group.prefix(5)), "zzzzzzzz"] {
                let answer = try await collector.send("GET", "/v1/groups/\(bad)")
                #expect(answer.status == 400, "\(bad)")
                #expect(answer.errorCode == "invalid_query", "\(bad)")
            }
        }
    }

    @Test("resolve in the next version: GET /v1/fields says resolved while the same version keeps reporting")
    func resolveInNextVersion() async throws {
        try await TestCollector.run { collector in
            // Times from the clock now: the resolution must fall between the first report and the later ones.
            let later = { (seconds: TimeInterval) in RFC3339.string(from: Date().addingTimeInterval(seconds)) }
            _ = try await collector.ingest(
                Batches.batch(version: "5.2.0", reports: [Batches.report(occurredAt: later(-600))]))
            let group = try #require(try await collector.fields().fields.first?.group)
            let answer = try await collector.send("POST", "/v1/groups/\(group)/resolve-in-next-version")
            #expect(answer.status == 200)
            #expect(answer.json["resolved_through_version"] as? String == "5.2.0")
            try await Task.sleep(for: .milliseconds(20))
            _ = try await collector.ingest(
                Batches.batch(version: "5.2.0", reports: [Batches.report(occurredAt: later(5))]))
            #expect(try await collector.fields().fields.first?.status == .resolved)
            _ = try await collector.ingest(
                Batches.batch(version: "5.3.0", reports: [Batches.report(occurredAt: later(6))]))
            #expect(try await collector.fields().fields.first?.status == .regressed)
        }
    }

    @Test("the action endpoints need a token that may triage once one exists")
    func actionsNeedToken() async throws {
        try await TestCollector.run { collector in
            let (token, _) = try await collector.createCredential(.read, scope: .triage)
            _ = try await collector.ingest(Batches.batch(reports: [Batches.report()]))
            let group = try #require(try await collector.fields(token: token).fields.first?.group)
            let anonymous = try await collector.send("POST", "/v1/groups/\(group)/mute?count=10")
            #expect(anonymous.status == 401)
            let signed = try await collector.send(
                "POST", "/v1/groups/\(group)/mute?count=10", headers: ["Authorization": "Bearer \(token)"])
            #expect(signed.status == 200)
            #expect(signed.json["muted_failures_left"] as? Int == 10)
        }
    }
}

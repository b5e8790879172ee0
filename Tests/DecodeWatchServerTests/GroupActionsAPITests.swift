import DecodeWatchCore
import Foundation
import Testing

/// `POST /v1/groups/{group}/{resolve-in-next-version,mute,unmute}`, `GET /v1/groups/{group}`, and query
/// strings as browsers' forms encode them.
@Suite("Group actions API")
struct GroupActionsAPITests {
    @Test("GET /v1/fields reads + as a space, as forms send it (was 400 for endpoint=GET+%2Fv2%2Fposts)")
    func plusIsSpace() async throws {
        try await TestCollector.run(reach: .router) { collector in
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
        try await TestCollector.run(reach: .router) { collector in
            let group = try await collector.ingestOneGroup()
            let muted = try await collector.decide("/v1/groups/\(group)/mute?for=24h")
            #expect(muted.muted)
            #expect(muted.mutedUntil != nil)
            #expect(try await collector.send("GET", "/v1/groups/\(group)").decoded(GroupAnswer.self).muted)
            let unmuted = try await collector.decide("/v1/groups/\(group)/unmute")
            #expect(!unmuted.muted)
            #expect(unmuted.history.map(\.action) == ["mute", "unmute"])
            #expect(unmuted.history.first?.detail == "for 24h")
        }
    }

    @Test("mute with a bad or missing length is a 400 naming what is wrong")
    func badMute() async throws {
        try await TestCollector.run(reach: .router) { collector in
            let group = try await collector.ingestOneGroup()
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
        try await TestCollector.run(reach: .router) { collector in
            let group = try await collector.ingestOneGroup()
            #expect(
                try await collector.decide("/v1/groups/\(group.prefix(6).uppercased())/mute?count=2").group == group)
            // A resolve answers the product's [String: String] of group, status and time.
            let resolved = try await collector.send("POST", "/v1/groups/\(group.prefix(12))/resolve")
            #expect(try resolved.decoded([String: String].self)["group"] == group)
            for bad in [String(group.prefix(5)), "zzzzzzzz"] {
                let answer = try await collector.send("GET", "/v1/groups/\(bad)")
                #expect(answer.status == 400, "\(bad)")
                #expect(answer.errorCode == "invalid_query", "\(bad)")
            }
        }
    }

    @Test("resolve in the next version: GET /v1/fields says resolved while the same version keeps reporting")
    func resolveInNextVersion() async throws {
        try await TestCollector.run(reach: .router) { collector in
            // Times from the clock now: the resolution must fall between the first report and the later ones.
            let later = { (seconds: TimeInterval) in RFC3339.string(from: Date().addingTimeInterval(seconds)) }
            _ = try await collector.ingest(
                Batches.batch(version: "5.2.0", reports: [Batches.report(occurredAt: later(-600))]))
            let group = try #require(try await collector.fields().fields.first?.group)
            let answer = try await collector.send("POST", "/v1/groups/\(group)/resolve-in-next-version")
            #expect(answer.status == 200)
            #expect(try answer.decoded(GroupAnswer.self).resolvedThroughVersion == "5.2.0")
            // Lets the clock pass the resolution, so that the next batch arrives after it.
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
        try await TestCollector.run(reach: .router) { collector in
            let (token, _) = try await collector.createCredential(.read, scope: .triage)
            let group = try await collector.ingestOneGroup(token: token)
            let anonymous = try await collector.send("POST", "/v1/groups/\(group)/mute?count=10")
            #expect(anonymous.status == 401)
            let signed = try await collector.send(
                "POST", "/v1/groups/\(group)/mute?count=10", headers: ["Authorization": "Bearer \(token)"])
            #expect(signed.status == 200)
            #expect(try signed.decoded(GroupAnswer.self).mutedFailuresLeft == 10)
        }
    }
}

import DecodeWatchCore
import DecodeWatchServer
import DecodeWatchStore
import DecodeWatchTestSupport
import Foundation
import Testing

@Suite("Ingest keys and read tokens")
struct AccessTests {
    static let lastDay = FieldsQuery(
        since: Date().addingTimeInterval(-86_400), until: Date().addingTimeInterval(3600))

    @Test("once a key exists, a batch without a key or with an unknown key is refused with 401 and nothing is stored")
    func keyRequired() async throws {
        try await TestCollector.run { collector in
            _ = try await collector.createCredential(.ingest, app: "com.example.shop")
            let batch = Batches.batch(reports: [Batches.report()])
            let missing = try await collector.ingest(batch)
            #expect(missing.status == 401)
            #expect(missing.errorCode == "ingest_key_required")
            #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            let unknown = try await collector.ingest(batch, key: "dwk_" + String(repeating: "A", count: 43))
            #expect(unknown.status == 401)
            #expect(unknown.errorCode == "invalid_ingest_key")
            let readToken = try await collector.createCredential(.read).0
            let wrongKind = try await collector.ingest(batch, key: readToken)
            #expect(wrongKind.status == 401)
            #expect(try await collector.store.fields(Self.lastDay).fields.isEmpty)
        }
    }

    @Test("an app's key ingests for that app; on another app's batch it gets 403 and nothing is stored")
    func keyScopedToApp() async throws {
        try await TestCollector.run { collector in
            let (shopKey, _) = try await collector.createCredential(.ingest, app: "com.example.shop")
            _ = try await collector.createCredential(.ingest, app: "com.example.news")
            let own = try await collector.ingest(Batches.batch(reports: [Batches.report()]), key: shopKey)
            #expect(own.status == 202)
            let other = try await collector.ingest(
                Batches.batch(app: "com.example.news", reports: [Batches.report(count: 9)]), key: shopKey)
            #expect(other.status == 403)
            #expect(other.errorCode == "wrong_app")
            #expect(other.errorMessage?.contains("com.example.shop") == true)
            let stored = try await collector.store.fields(Self.lastDay).fields
            #expect(stored.map(\.app) == ["com.example.shop"])
            #expect(stored.map(\.count) == [1])
        }
    }

    @Test("a revoked key is refused within seconds, and the key's last use is recorded")
    func revocationTakesEffect() async throws {
        try await TestCollector.run { collector in
            let (key, credential) = try await collector.createCredential(.ingest, app: "com.example.shop")
            #expect(try await collector.ingest(Batches.batch(reports: [Batches.report()]), key: key).status == 202)
            try await collector.store.revokeCredential(id: credential.id, kind: .ingest, at: Date(), by: "local:test")
            let revokedAt = Date()
            var status = 202
            try await eventually(within: .seconds(10), every: .milliseconds(200)) {
                status = try await collector.ingest(Batches.batch(reports: [Batches.report()]), key: key).status
                return status != 202
            }
            #expect(status == 401)
            #expect(Date().timeIntervalSince(revokedAt) < 5)
            let listed = try await collector.store.credentials(kind: .ingest)
            #expect(listed.first?.lastUsedAt != nil)
            #expect(listed.first?.revokedAt != nil)
        }
    }

    @Test("revoking every key does not reopen the collector to unauthenticated ingest")
    func revokedKeysStillRequireKeys() async throws {
        try await TestCollector.run { collector in
            let (_, credential) = try await collector.createCredential(.ingest, app: "com.example.shop")
            try await collector.store.revokeCredential(id: credential.id, kind: .ingest, at: Date(), by: "local:test")
            #expect(try await collector.ingest(Batches.batch(reports: [Batches.report()])).status == 401)
        }
    }

    @Test(
        "once a read token exists, the query API (the release check too) and resolve need one; health probes stay open")
    func readTokenRequired() async throws {
        try await TestCollector.run { collector in
            #expect(try await collector.ingest(Batches.batch(reports: [Batches.report()])).status == 202)
            let (token, _) = try await collector.createCredential(.read, scope: .triage)
            let anonymous = try await collector.send("GET", "/v1/fields")
            #expect(anonymous.status == 401)
            #expect(anonymous.errorCode == "read_token_required")
            #expect(!anonymous.text.contains("title"))
            let (ingestKey, _) = try await collector.createCredential(.ingest, app: "com.example.shop")
            let withIngestKey = try await collector.send(
                "GET", "/v1/fields", headers: ["Authorization": "Bearer \(ingestKey)"])
            #expect(withIngestKey.status == 401)
            #expect(withIngestKey.errorCode == "invalid_read_token")
            let fields = try await collector.fields("since=1d", token: token)
            #expect(fields.fields.count == 1)
            let group = try #require(fields.fields.first?.group)
            #expect(try await collector.send("POST", "/v1/groups/\(group)/resolve").status == 401)
            let resolved = try await collector.send(
                "POST", "/v1/groups/\(group)/resolve", headers: ["Authorization": "Bearer \(token)"])
            #expect(resolved.status == 200)
            let check = "/v1/check?app=com.example.shop&version=5.2.0"
            #expect(try await collector.send("GET", check).errorCode == "read_token_required")
            let checked = try await collector.send("GET", check, headers: ["Authorization": "Bearer \(token)"])
            #expect(checked.status == 200)
            #expect(try checked.decoded(ReleaseVerdict.self).verdict == .insufficient)
            #expect(try await collector.send("GET", "/healthz").status == 200)
            #expect(try await collector.send("GET", "/readyz").status == 200)
        }
    }

    /// The decisions about a group through the API, each as a path after `/v1/groups/{group}`, with the words a
    /// refusal names it by.
    static let decisions = [
        ("/resolve", "Resolving a group"), ("/resolve-in-next-version", "Resolving a group in its next version"),
        ("/mute?for=24h", "Muting a group"), ("/unmute", "Unmuting a group"),
    ]

    @Test(
        "a read-scoped token reads, but each decision is refused with 403 naming the 'triage' scope, and nothing changes"
    )
    func readScopeCannotDecide() async throws {
        try await TestCollector.run { collector in
            let (token, _) = try await collector.createCredential(.read)
            let group = try await collector.ingestOneGroup(token: token)
            for (path, activity) in Self.decisions {
                let refused = try await collector.send(
                    "POST", "/v1/groups/\(group)\(path)", headers: ["Authorization": "Bearer \(token)"])
                #expect(refused.status == 403, "\(path)")
                #expect(refused.errorCode == "insufficient_scope", "\(path)")
                #expect(
                    refused.errorMessage
                        == "\(activity) needs a token with the 'triage' scope; this token has 'read'. Create one with "
                        + "`decodewatch tokens create --name NAME --scope triage`.")
            }
            let state = try await collector.send(
                "GET", "/v1/groups/\(group)", headers: ["Authorization": "Bearer \(token)"])
            #expect(try !state.decoded(GroupAnswer.self).muted)
            #expect(try state.decoded(GroupAnswer.self).history.isEmpty)
            #expect(try await collector.fields(token: token).fields.first?.status == .new)
        }
    }

    @Test("triage and admin tokens take every decision", arguments: [TokenScope.triage, .admin])
    func triageScopeDecides(scope: TokenScope) async throws {
        try await TestCollector.run { collector in
            let (token, _) = try await collector.createCredential(.read, scope: scope)
            let group = try await collector.ingestOneGroup(token: token)
            for (path, _) in Self.decisions {
                let answer = try await collector.send(
                    "POST", "/v1/groups/\(group)\(path)", headers: ["Authorization": "Bearer \(token)"])
                #expect(answer.status == 200, "\(path): \(answer.text)")
            }
            let state = try await collector.send(
                "GET", "/v1/groups/\(group)", headers: ["Authorization": "Bearer \(token)"])
            #expect(try state.decoded(GroupAnswer.self).history.count == 4)
        }
    }

    @Test("once a read token exists, /metrics needs a token, of any scope")
    func metricsBehindToken() async throws {
        // Without the cache, the token counts at once, not after the answer "no token exists" expires.
        try await TestCollector.run(ServerConfiguration(credentialCacheSeconds: 0)) { collector in
            #expect(try await collector.send("GET", "/metrics").status == 200, "open while no token exists")
            let (token, _) = try await collector.createCredential(.read)
            let anonymous = try await collector.send("GET", "/metrics")
            #expect(anonymous.status == 401)
            #expect(anonymous.errorCode == "read_token_required")
            let metrics = try await collector.send("GET", "/metrics", headers: ["Authorization": "Bearer \(token)"])
            #expect(metrics.status == 200)
            #expect(!metrics.text.contains(token))
        }
    }

    @Test("with --public-metrics, /metrics stays open once read tokens exist, and the query API does not")
    func publicMetrics() async throws {
        try await TestCollector.run(ServerConfiguration(publicMetrics: true)) { collector in
            _ = try await collector.createCredential(.read)
            #expect(try await collector.send("GET", "/metrics").status == 200)
            #expect(try await collector.send("GET", "/v1/fields").status == 401)
        }
    }

    @Test("the per-app rate limit answers 429 from the key, before the body is read or parsed")
    func rateLimitBeforeBody() async throws {
        try await TestCollector.run(ServerConfiguration(appBatchesPerMinute: 1)) { collector in
            let (key, _) = try await collector.createCredential(.ingest, app: "com.example.shop")
            #expect(try await collector.ingest(Batches.batch(reports: [Batches.report()]), key: key).status == 202)
            // Not JSON at all: had it been parsed, the answer would be 400.
            let limited = try await collector.ingest(Data("not json".utf8), encoding: nil, key: key)
            #expect(limited.status == 429)
            #expect(limited.errorCode == "rate_limited")
            #expect(limited.header("Retry-After").flatMap(Int.init) ?? 0 >= 1)
        }
    }
}

import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchTestSupport
import Foundation
import Logging
import Testing

@testable import DecodeWatchCLI

@Suite struct DigestDeliveryTests {
    let logger = Logger(label: "test")

    func job(_ url: URL, attempts: Int = 4) -> DigestJob {
        DigestJob(
            period: DigestFixture.period,
            webhook: WebhookSender(url: url, attempts: attempts, initialDelay: 0.05, timeout: 5))
    }

    @Test("the digest is posted once to a real local receiver as Slack {\"text\": …}, and recorded as delivered")
    func delivered() async throws {
        let fixture = try await DigestFixture.seededDay()
        let receiver = try await TestReceiver.webhook()
        defer { receiver.cancel() }

        let result = try await job(receiver.webhookURL).run(
            store: fixture.store, now: DigestFixture.now, logger: logger)
        #expect(result.delivery == .delivered(attempts: 1))
        let requests = receiver.requests
        try #require(requests.count == 1)
        #expect(requests[0].requestLine == "POST /hooks/digest HTTP/1.1")
        #expect(requests[0].headers["content-type"]?.hasPrefix("application/json") == true)
        let payload = try #require(try JSONSerialization.jsonObject(with: requests[0].body) as? [String: String])
        #expect(payload.keys.sorted() == ["text"])
        let text = try #require(payload["text"])
        #expect(text.contains("*New (1)*"))
        #expect(text.contains("back in 5.3.1"))

        let key = DigestRunKey(period: DigestFixture.period, webhook: receiver.webhookURL, app: nil)
        let record = try #require(try await fixture.store.digestRun(key))
        #expect(record.deliveredAt == DigestFixture.now)
        #expect(!record.key.destination.contains("127.0.0.1"))

        // The same period again (cron twice, a retry by hand): not posted again.
        let again = try await job(receiver.webhookURL).run(
            store: fixture.store, now: DigestFixture.now.addingTimeInterval(600), logger: logger)
        #expect(again.delivery == .alreadyDelivered(at: DigestFixture.now))
        #expect(receiver.requests.count == 1)
    }

    @Test("digests of two environments for one period and webhook are each delivered once, with their own counts")
    func environmentsDeliveredApart() async throws {
        let fixture = try DigestFixture()
        try await fixture.send(6, at: "2026-11-03T05:00:00Z", path: ["title"])
        try await fixture.send(4, at: "2026-11-03T06:00:00Z", path: ["title"], environment: "staging")
        let receiver = try await TestReceiver.webhook()
        defer { receiver.cancel() }
        var deliveries: [DigestJob.Delivery?] = []
        for environment in ["staging", "production", "staging"] {
            var job = job(receiver.webhookURL)
            job.environment = environment
            let result = try await job.run(store: fixture.store, now: DigestFixture.now, logger: logger)
            deliveries.append(result.delivery)
        }
        #expect(
            deliveries == [
                .delivered(attempts: 1), .delivered(attempts: 1), .alreadyDelivered(at: DigestFixture.now),
            ])
        let texts = try receiver.requests.map { request in
            try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: String])["text"] ?? ""
        }
        try #require(texts.count == 2)
        #expect(texts[0].contains("DecodeWatch digest, staging environment") && texts[0].contains("*4* failures"))
        #expect(texts[1].contains("DecodeWatch digest, production environment") && texts[1].contains("*6* failures"))
        let keys = ["staging", "production"].map {
            DigestRunKey(period: DigestFixture.period, webhook: receiver.webhookURL, app: nil, environment: $0)
        }
        #expect(keys[0].destination != keys[1].destination)
        for key in keys {
            #expect(try await fixture.store.digestRun(key)?.deliveredAt == DigestFixture.now)
        }
    }

    @Test("a webhook that fails first (500, 503) is retried with backoff until it accepts")
    func retried() async throws {
        let fixture = try await DigestFixture.seededDay()
        let receiver = try await TestReceiver.webhook(statuses: [500, 503])
        defer { receiver.cancel() }
        let result = try await job(receiver.webhookURL).run(
            store: fixture.store, now: DigestFixture.now, logger: logger)
        #expect(result.delivery == .delivered(attempts: 3))
        #expect(receiver.requests.count == 3)
        #expect(Set(receiver.requests.map(\.body)).count == 1)
    }

    @Test("a webhook that keeps failing throws a clear error and leaves the period to the next run")
    func failure() async throws {
        let fixture = try await DigestFixture.seededDay()
        let receiver = try await TestReceiver.webhook(statuses: [500, 500, 500])
        defer { receiver.cancel() }
        await #expect {
            try await job(receiver.webhookURL, attempts: 3).run(
                store: fixture.store, now: DigestFixture.now, logger: logger)
        } throws: { error in
            "\(error)".contains("did not accept the digest after 3 attempts (last: HTTP 500)")
        }
        let key = DigestRunKey(period: DigestFixture.period, webhook: receiver.webhookURL, app: nil)
        let record = try #require(try await fixture.store.digestRun(key))
        #expect(record.deliveredAt == nil && record.claimedAt == nil && record.lastError?.contains("HTTP 500") == true)

        // The next run (receiver healthy again) delivers it.
        let result = try await job(receiver.webhookURL).run(
            store: fixture.store, now: DigestFixture.now.addingTimeInterval(3600), logger: logger)
        #expect(result.delivery == .delivered(attempts: 1))
        #expect(receiver.requests.count == 4)
    }

    @Test("a 4xx answer is final: not retried")
    func rejected() async throws {
        let fixture = try DigestFixture()
        let receiver = try await TestReceiver.webhook(statuses: [404])
        defer { receiver.cancel() }
        await #expect {
            try await job(receiver.webhookURL).run(store: fixture.store, now: DigestFixture.now, logger: logger)
        } throws: { error in
            "\(error)".contains("refused the digest (HTTP 404)")
        }
        #expect(receiver.requests.count == 1)
    }

    @Test("unreachable webhook: retried, then a clear error", .timeLimit(.minutes(1)))
    func unreachable() async throws {
        let fixture = try DigestFixture()
        let receiver = try await TestReceiver.webhook()
        let url = receiver.webhookURL
        await receiver.stop()
        await #expect {
            try await job(url, attempts: 2).run(store: fixture.store, now: DigestFixture.now, logger: logger)
        } throws: { error in
            "\(error)".contains("after 2 attempts")
        }
    }

    @Test("concurrent runs on separate connections (like separate processes) deliver exactly once", arguments: [2, 6])
    func exactlyOnce(runs: Int) async throws {
        let fixture = try await DigestFixture.seededDay()
        let receiver = try await TestReceiver.webhook()
        defer { receiver.cancel() }
        let stores = try (0..<runs).map { _ in try fixture.reopen() }
        let job = self.job(receiver.webhookURL)
        let logger = self.logger
        let outcomes = try await withThrowingTaskGroup(of: DigestJob.Delivery?.self) { group in
            for store in stores {
                group.addTask { try await job.run(store: store, now: DigestFixture.now, logger: logger).delivery }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(receiver.requests.count == 1)
        #expect(outcomes.filter { $0 == .delivered(attempts: 1) }.count == 1)
        #expect(
            outcomes.allSatisfy {
                switch $0 {
                case .delivered, .alreadyDelivered, .inProgress: true
                case nil: false
                }
            })
    }

    @Test("the scheduler delivers the last finished period once, and waits for the next boundary")
    func scheduler() async throws {
        let fixture = try await DigestFixture.seededDay()
        let receiver = try await TestReceiver.webhook()
        defer { receiver.cancel() }
        let scheduler = DigestScheduler(
            store: fixture.store, every: 86_400, template: job(receiver.webhookURL), settle: 300, logger: logger)
        #expect(DigestScheduler.period(at: DigestFixture.now, every: 86_400) == DigestFixture.period)

        let wait = await scheduler.tick(now: DigestFixture.now)
        #expect(receiver.requests.count == 1)
        #expect(wait == 86_400 + 300 - 7 * 60)
        // A restart within the same day: nothing is sent again.
        _ = await scheduler.tick(now: DigestFixture.now.addingTimeInterval(3600))
        #expect(receiver.requests.count == 1)
        // The next day: the next period is sent.
        _ = await scheduler.tick(now: DigestFixture.now.addingTimeInterval(86_400))
        #expect(receiver.requests.count == 2)
    }
}

@Suite struct SlackEscapingTests {
    @Test(
        "app-controlled text cannot mention a channel or forge a link in Slack",
        arguments: [
            ("<!channel>", "&lt;!channel&gt;"),
            ("<https://evil.example|click>", "&lt;https://evil.example|click&gt;"),
            ("a & b", "a &amp; b"),
            ("&lt;", "&amp;lt;"),
        ])
    func escaped(text: String, sent: String) throws {
        let payload = try JSONSerialization.jsonObject(with: WebhookSender.payload(text: text)) as? [String: String]
        #expect(payload?["text"] == sent)
    }

    @Test("a digest whose app version is '<!channel>' reaches the webhook escaped")
    func digestVersionEscaped() async throws {
        let fixture = try DigestFixture()
        try await fixture.send(3, at: "2026-11-03T10:00:00Z", path: ["results", 0, "title"], version: "<!channel>")
        let receiver = try await TestReceiver.webhook()
        defer { receiver.cancel() }
        let job = DigestJob(
            period: DigestFixture.period,
            webhook: WebhookSender(url: receiver.webhookURL, attempts: 1, initialDelay: 0, timeout: 5))
        _ = try await job.run(store: fixture.store, now: DigestFixture.now, logger: Logger(label: "test"))
        let body = try #require(receiver.requests.first?.body)
        let text = try #require((try JSONSerialization.jsonObject(with: body) as? [String: String])?["text"])
        #expect(!text.contains("<!channel>"))
        #expect(text.contains("&lt;!channel&gt;"))
    }
}

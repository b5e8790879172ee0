import ArgumentParser
import DecodeWatchCore
import DecodeWatchStore
import Foundation
import Logging

extension DecodeWatchCommand {
    /// `decodewatch digest`: the periodic summary of docs/cli.md#digest, once.
    struct Digest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Summarize a period: new, regressed, growing and fading breaking fields, per endpoint.",
            discussion: """
                A period of whole days (the default 24h, 7d) ends at the last midnight UTC, other periods at \
                the start of the current hour; each is compared with the period of the same length before it. The digest goes to standard output, unless --output or --webhook \
                is given. A webhook receives Slack-compatible {"text": …} and gets each period at most \
                once, even when several processes run the digest: run it from cron as often as you like.
                """)

        @OptionGroup var store: StoreOptions
        @Option(help: "Period length (24h, 7d) or RFC 3339 start. Default: the last whole UTC day.")
        var since: String?
        @Option(help: "Output format: markdown, html or json.") var format: DigestFormat = .markdown
        @Option(help: "Write the digest to this file instead of standard output.") var output: String?
        @Option(help: "POST the digest to this Slack-compatible webhook URL, once per period.") var webhook: String?
        @Option(help: "Only this app id.") var app: String?
        @Option(
            help: "Before the digest, resolve groups not seen for this long (e.g. 14d).",
            transform: DurationArgument.parser("--auto-resolve-after", mustBe: "a duration such as 14d."))
        var autoResolveAfter: DurationArgument?
        @Option(help: "Webhook attempts before giving up (retried with exponential backoff).")
        var webhookAttempts = 4
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if let webhook {
                guard let url = URL(string: webhook), let scheme = url.scheme?.lowercased(),
                    ["http", "https"].contains(scheme), url.host != nil
                else { throw ValidationError("--webhook '\(webhook)' must be an http(s) URL.") }
            }
            if let app, app.isEmpty { throw ValidationError("--app must not be empty.") }
            guard (1...10).contains(webhookAttempts) else { throw ValidationError("--webhook-attempts must be 1–10.") }
            do { _ = try DigestPeriod.parse(since: since, now: Date()) } catch { throw ValidationError(error.message) }
        }

        func run() async throws {
            let now = Date()
            let logger = logging.makeLogger()
            let period: DigestPeriod
            do { period = try DigestPeriod.parse(since: since, now: now) } catch {
                throw ValidationError(error.message)
            }
            let job = DigestJob(
                period: period, app: app, format: format, outputPath: output,
                webhook: webhook.flatMap(URL.init(string:)).map { WebhookSender(url: $0, attempts: webhookAttempts) },
                autoResolveAfter: autoResolveAfter?.seconds)
            let result = try await store.withStore(logger: logger) {
                try await job.run(store: $0, now: now, logger: logger)
            }
            if output == nil && webhook == nil { print(result.rendered, terminator: "") }
            let window = "\(RFC3339.string(from: period.since)) → \(RFC3339.string(from: period.until))"
            switch result.delivery {
            case .delivered(let attempts)?:
                Self.note(
                    "Digest for \(window) delivered to the webhook (\(attempts) attempt\(attempts == 1 ? "" : "s")).")
            case .alreadyDelivered(let at)?:
                Self.note("Digest for \(window) was already delivered at \(RFC3339.string(from: at)); not sent again.")
            case .inProgress(let since)?:
                Self.note(
                    "Another process has been delivering the digest for \(window) since \(RFC3339.string(from: since)); not sent."
                )
            case nil:
                break
            }
        }

        private static func note(_ line: String) {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}

extension DigestFormat: ExpressibleByArgument {}

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
                --since 24h covers the last 24 hours, to the minute. --period 24h covers the last whole \
                period: whole days (the default, 24h; 7d) end at the last midnight UTC, other lengths at the \
                start of the current hour, so every run until the next boundary computes the same period. \
                Either is compared with the period of the same length before it. The digest goes to standard \
                output, unless --output or --webhook is given. A webhook receives Slack-compatible \
                {"text": …} and gets each period at most once, even when several processes run the digest: \
                with --period, run it from cron as often as you like.
                """)

        @OptionGroup var store: StoreOptions

        @OptionGroup var databaseOnly: DatabaseOnlyOptions
        @Option(help: "The last so long (24h, 7d, '2 days'), to the minute, or an RFC 3339 start. Not with --period.")
        var since: TimeArgument?
        @Option(help: "The last whole period of this length (24h, 7d), aligned. Default: the last whole UTC day.")
        var period: DurationArgument?
        @Option(help: "Output format: markdown, html or json.") var format: DigestFormat = .markdown
        @Option(help: "Write the digest to this file instead of standard output.") var output: String?
        @Option(help: "POST the digest to this Slack-compatible webhook URL, once per period.") var webhook: String?
        @Option(help: "Only this app id.") var app: String?
        @Option(help: "Only this environment's failures, installs and decodes (production, staging, …).")
        var environment: String?
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
            do { _ = try EnvironmentName.filter(environment, field: "--environment") } catch {
                throw ValidationError(error.message)
            }
            guard (1...10).contains(webhookAttempts) else { throw ValidationError("--webhook-attempts must be 1–10.") }
            do { _ = try DigestPeriod.parse(since: since?.text, period: period?.description, now: Date()) } catch {
                throw ValidationError(error.message)
            }
        }

        func run() async throws {
            let now = Date()
            let logger = logging.makeLogger()
            let span: DigestPeriod
            do { span = try DigestPeriod.parse(since: since?.text, period: period?.description, now: now) } catch {
                throw ValidationError(error.message)
            }
            let job = DigestJob(
                period: span, app: app, environment: environment, format: format, outputPath: output,
                webhook: webhook.flatMap(URL.init(string:)).map { WebhookSender(url: $0, attempts: webhookAttempts) },
                autoResolveAfter: autoResolveAfter?.seconds)
            let result = try await store.withStore(logger: logger) {
                try await job.run(store: $0, now: now, logger: logger)
            }
            if output == nil && webhook == nil { print(result.rendered, terminator: "") }
            let window = "\(RFC3339.string(from: span.since)) → \(RFC3339.string(from: span.until))"
            switch result.delivery {
            case .delivered(let attempts)?:
                Self.note(
                    "Digest for \(window) delivered to the webhook (\(Plural.count(attempts, "attempt"))).")
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

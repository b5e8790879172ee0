import ArgumentParser
import DecodeWatchCore
import DecodeWatchStore
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch alerts add|list|remove|test`: rules that post to a webhook within a minute of a field
    /// starting to break, evaluated inside `decodewatch serve`.
    struct Alerts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Alert rules: post to Slack or any webhook within a minute when a field starts breaking.",
            discussion: """
                Rules are kept in the store and evaluated by `decodewatch serve` every --alert-interval \
                (default 30s). Rule syntax:
                  --when new              a group first seen inside the window
                  --when regressed        a resolved group seen again inside the window
                  --when count-above:N    more than N failures inside the window
                  --when rate-above:P     more than P % of the endpoint's decodes failed on the field \
                (needs the decode counts clients report)
                  --over 10m              the window, ending now: whole minutes, 1m to 7d
                A group alerts once per rule until it is resolved or --alert-cooldown (default 1h) passes; \
                when many groups fire one rule at once, one alert lists the top ones and counts all. Muted \
                groups never alert.
                """,
            subcommands: [Add.self, List.self, Remove.self, Test.self])
    }
}

extension DecodeWatchCommand.Alerts {
    /// `decodewatch alerts add`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an alert rule; a rule that cannot work is refused and nothing is stored.")

        @Option(help: "A name people recognise in the alert.") var name: String
        @Option(help: "Only this app.") var app: String?
        @Option(help: "Only this endpoint, e.g. 'GET /v2/posts' (normalized).") var endpoint: String?
        @Option(help: "Only this kind, e.g. keyNotFound.") var kind: String?
        @Option(help: "Count only this environment's reports (production, staging, …); default: every environment.")
        var environment: String?
        @Option(help: "When it fires: \(AlertCondition.syntax).") var when: String
        @Option(help: "The window it is evaluated over, ending now: whole minutes from 1m to 7d (10m, 1h, '2 days').")
        var over = DurationArgument(seconds: 600)
        @Option(help: "The http(s) URL alerts are posted to (a Slack incoming webhook, or any receiver).")
        var webhook: String
        @Option(help: "slack ({\"text\": …}) or json (schemas/alert.v1.schema.json).") var format = "slack"
        @OptionGroup var store: StoreOptions
        @OptionGroup var databaseOnly: DatabaseOnlyOptions
        @Flag(help: StoreOptions.createHelp) var create = false

        var draft: AlertRuleDraft {
            AlertRuleDraft(
                name: name, app: app, endpoint: endpoint, kind: kind, when: when, over: over.description,
                webhook: webhook, format: format, environment: environment)
        }

        func validate() throws {
            do { _ = try draft.validate() } catch { throw ValidationError(error.message) }
        }

        func run() async throws {
            let rule = try draft.validate()
            try await store.withStore(createFlag: create) { store in
                if rule.condition.needsDecodes,
                    try await !store.hasDecodeCounts(
                        app: rule.app, endpoint: rule.endpoint, environment: rule.environment)
                {
                    let scope = [rule.app, rule.endpoint].compactMap { $0 }.joined(separator: " ")
                    throw QueryError(
                        "--when \(rule.condition) needs decode counts, and no client has reported any"
                            + (scope.isEmpty ? "" : " for \(scope)") + (rule.environment.map { " in \($0)" } ?? "")
                            + "; send them with the SDK's decode counting (the batch's `decodes`), "
                            + "or use --when count-above:N.")
                }
                try await store.addAlertRule(rule)
            }
            print("Added alert rule \(rule.id) (\(rule.condition) over \(rule.windowText)).")
        }
    }

    /// `decodewatch alerts list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List alert rules (webhook URLs shown without their secret parts).")

        @Option(help: "Output format: table or json.") var format: CredentialActions.Format = .table
        @OptionGroup var source: SourceOptions

        func run() async throws {
            let rules: [AlertRuleListing]
            switch try source.source() {
            case .store(let store):
                rules = try await store.withStore { try await $0.alertRules() }.map(AlertRuleListing.init)
            case .collector(let collector): rules = try await collector.get([AlertRuleListing].self, "/v1/alerts")
            }
            switch format {
            case .json:
                print(try CommandJSON.render(rules), terminator: "")
            case .table:
                guard !rules.isEmpty else {
                    print("No alert rules. Add one with `decodewatch alerts add --name N --when new --webhook URL`.")
                    return
                }
                var rows = [["ID", "NAME", "WHEN", "OVER", "SCOPE", "FORMAT", "WEBHOOK"]]
                for rule in rules {
                    let scope = [rule.app, rule.endpoint, rule.kind, rule.environment.map { "in \($0)" }]
                        .compactMap { $0 }.joined(separator: " ")
                    rows.append([
                        rule.id, rule.name, rule.when, rule.over, scope.isEmpty ? "all" : scope, rule.format,
                        rule.webhook,
                    ])
                }
                print(TextTable.render(rows), terminator: "")
            }
        }
    }

    /// `decodewatch alerts remove ID`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an alert rule.")

        @Argument(help: "The rule id, as shown by `decodewatch alerts list`.") var id: String
        @OptionGroup var store: StoreOptions
        @OptionGroup var databaseOnly: DatabaseOnlyOptions

        func run() async throws {
            try await store.withStore { try await $0.removeAlertRule(id: id) }
            print("Removed alert rule \(id).")
        }
    }

    /// `decodewatch alerts test ID`.
    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a sample alert of a rule to its webhook, marked as a test.")

        @Argument(help: "The rule id, as shown by `decodewatch alerts list`.") var id: String
        @Option(help: "The dashboard's public URL, for the sample's link.") var publicURL: String?
        @OptionGroup var store: StoreOptions
        @OptionGroup var databaseOnly: DatabaseOnlyOptions

        func run() async throws {
            let rules = try await store.withStore { try await $0.alertRules() }
            guard let rule = rules.first(where: { $0.id == id }) else {
                throw StoreError(
                    .notFound, "No alert rule has the id '\(id)'; list rules with `decodewatch alerts list`.")
            }
            let alert = SampleAlert.make(for: rule, now: Date(), publicURL: publicURL.flatMap(URL.init(string:)))
            let sender = WebhookSender(url: rule.webhook, attempts: 2, initialDelay: 1, timeout: 10)
            let attempts = try await sender.send(AlertRenderer.body(alert), what: "the sample alert")
            print(
                "Sent a sample alert of \(rule.id) to \(sender.redactedURL) (\(Plural.count(attempts, "attempt")))."
            )
        }
    }
}

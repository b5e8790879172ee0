import ArgumentParser
import DecodeWatchCore
import DecodeWatchStore
import Foundation

extension DecodeWatchCommand {
    /// `decodewatch check`: the release check of one app version (docs/cli.md#check), for CI.
    ///
    /// Every option is optional to ArgumentParser, read as text and checked in `validate()` by the parser `GET
    /// /v1/check` uses. A missing required option makes ArgumentParser look for its built-in flags first, and it
    /// would take `--version 5.2.0` for a request of the tool's own version and exit 0: a silent pass.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Judge an app version's breaking fields before a rollout: exit 0 pass, 1 fail, 2 insufficient.")

        enum Format: String, CaseIterable {
            case text, json, junit, github
        }

        @OptionGroup var source: SourceOptions
        @Option(help: "The app id (required).") var app: String?
        @Option(help: "The app version to judge, as batches send it in app.version (required).") var version: String?
        @Option(help: "A version to compare with: a field then fails only at --max-ratio times its rate there.")
        var baseline: String?
        @Option(help: "Only this environment's reports and decodes, for both versions (production, testflight, …).")
        var environment: String?
        @Option(help: "Window start: RFC 3339 time or a duration back from now such as 24h or 7d. Default: 24h.")
        var since: TimeArgument?
        @Option(help: "A field fails from this rate: 1%, 0.5% or a fraction such as 0.01. Default: 1%.")
        var maxRate: String?
        @Option(help: "With --baseline, a field fails only from this many times its baseline rate. Default: 3.")
        var maxRatio: String?
        @Option(help: "Fewer decodes of the version than this give 'insufficient' (exit 2). Default: 1000.")
        var minDecodes: String?
        @Option(help: "Output format: text, json, junit or github. Default: text.") var format: String?
        @Option(help: "The dashboard's public URL, for links to failing fields. Default: $DECODEWATCH_PUBLIC_URL.")
        var publicURL: String?

        /// The exit status of each verdict.
        static func exitCode(of verdict: ReleaseVerdict.Outcome) -> Int32 {
            switch verdict {
            case .pass: 0
            case .fail: 1
            case .insufficient: 2
            }
        }

        func validate() throws {
            _ = try query(now: Date())
            _ = try outputFormat()
            _ = try dashboard()
        }

        func run() async throws {
            let query = try query(now: Date())
            let format = try outputFormat()
            let verdict: ReleaseVerdict
            switch try source.source() {
            case .store(let store): verdict = try await store.withStore { try await $0.check(query) }
            case .collector(let collector):
                verdict = try await collector.get(
                    ReleaseVerdict.self, "/v1/check",
                    query: [
                        "app": app, "version": version, "baseline": baseline, "environment": environment,
                        "since": since?.text, "max_rate": maxRate,
                        "max_ratio": maxRatio, "min_decodes": minDecodes,
                    ])
            }
            print(CheckRenderer.render(verdict, as: format, dashboard: try dashboard()), terminator: "")
            UnknownValues.write(verdict.warnings, as: "Warning")
            if format == .json && verdict.verdict != .pass {
                FileHandle.standardError.write(Data((verdict.summary + "\n").utf8))
            }
            let code = Self.exitCode(of: verdict.verdict)
            if code != 0 { throw ExitCode(code) }
        }

        /// The query the options make.
        private func query(now: Date) throws -> ReleaseCheckQuery {
            do {
                return try ReleaseCheckQuery.parse(
                    app: app, version: version, baseline: baseline, environment: environment, since: since?.text,
                    maxRate: maxRate,
                    maxRatio: maxRatio, minDecodes: minDecodes, now: now, spelling: .flags)
            } catch {
                throw ValidationError(error.message)
            }
        }

        private func outputFormat() throws -> Format {
            guard let format else { return .text }
            guard let chosen = Format(rawValue: format) else {
                throw ValidationError("--format '\(format)' is unknown; use text, json, junit or github.")
            }
            return chosen
        }

        /// The dashboard's address, from `--public-url` or else `DECODEWATCH_PUBLIC_URL`; `nil` without either.
        private func dashboard(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL? {
            let variable = "DECODEWATCH_PUBLIC_URL"
            let source = publicURL == nil ? variable : "--public-url"
            guard let text = publicURL ?? environment[variable].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
            guard let url = URL(string: text), url.host != nil, ["http", "https"].contains(url.scheme?.lowercased())
            else {
                throw ValidationError(
                    "\(source) '\(text)' must be an http(s) URL such as https://decodewatch.example.com.")
            }
            return url
        }
    }
}

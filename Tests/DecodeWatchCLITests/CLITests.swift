import DecodeWatchCore
import DecodeWatchStore
import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("The decodewatch executable")
struct CLITests {
    @Test(
        "serve ingests, fields prints the same document as the API, and SIGTERM exits 0",
        arguments: Storage.allCases)
    func serveFieldsAndSIGTERM(storage: Storage) async throws {
        try await CLI.withDatabase(on: storage) { _, db in
            let server = try CLI.start(["serve", "--port", "0"] + db)
            let port = try await server.port()
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            let posted = try await CLI.postExampleBatch(port: port, session: session)
            #expect(posted.status == 202, "\(posted.text)")

            let window = CLI.exampleWindow
            let (apiData, _) = try await session.data(
                from: URL(
                    string:
                        "http://127.0.0.1:\(port)/v1/fields?since=\(CLI.exampleDay)T09:00:00Z&until=\(CLI.exampleDay)T10:00:00Z"
                )!)
            let json = try CLI.run(["fields", "--format", "json"] + db + window)
            #expect(json.status == 0)
            let fromCLI = try JSONDecoder().decode(FieldsSummary.self, from: Data(json.output.utf8))
            let fromAPI = try JSONDecoder().decode(FieldsSummary.self, from: apiData)
            #expect(fromCLI == fromAPI)
            #expect(fromCLI.fields.map(\.count) == [3, 1, 1])

            let table = try CLI.run(["fields"] + db + window)
            #expect(table.output.contains("$[*].author_association"))
            #expect(table.output.split(separator: "\n").allSatisfy { $0.count <= 80 })

            let csv = try CLI.run(["fields", "--format", "csv"] + db + window)
            let lines = csv.output.split(separator: "\n")
            #expect(lines.first?.hasPrefix("group,app,endpoint,path,kind") == true)
            #expect(lines.count == 4)
            #expect(csv.output.contains(#""$[*].files['it\'s.md'].raw_url""#) == false)  // no comma, so not quoted
            #expect(csv.output.contains(#"$[*].files['it\'s.md'].raw_url"#))

            let group = try #require(fromCLI.fields.first?.group)
            let resolved = try CLI.run(["resolve", group] + db)
            #expect(resolved.status == 0)
            let after = try CLI.run(["fields", "--format", "json"] + db + window)
            #expect(
                try JSONDecoder().decode(FieldsSummary.self, from: Data(after.output.utf8)).fields.first?.status
                    == .resolved)

            let exit = try await server.terminate()
            #expect(exit == 0)
            if let password = Storage.password { #expect(!server.readLog().contains(password)) }
        }
    }

    @Test(
        "serve refuses a non-loopback address while keys or tokens are missing, naming what to do",
        arguments: Storage.allCases)
    func refusesRemote(storage: Storage) throws {
        try CLI.withDatabase(on: storage) { _, db in
            let open = try CLI.run(["serve", "--host", "0.0.0.0", "--port", "0"] + db)
            #expect(open.status != 0)
            #expect(open.error.contains("no ingest keys exist"))
            #expect(open.error.contains("--allow-unauthenticated-remote"))
            #expect(try CLI.run(["keys", "create", "--create", "--app", "com.example.shop"] + db).status == 0)
            let keysOnly = try CLI.run(["serve", "--host", "0.0.0.0", "--port", "0"] + db)
            #expect(keysOnly.status != 0)
            #expect(!keysOnly.error.contains("no ingest keys exist"))
            #expect(keysOnly.error.contains("no read tokens exist"))
        }
    }

    @Test(
        "keys create prints the key once, list never shows it, serve needs it, and revoke stops it",
        arguments: Storage.allCases)
    func keyLifecycle(storage: Storage) async throws {
        try await CLI.withDatabase(on: storage) { _, db in
            let created = try CLI.run(
                ["keys", "create", "--create", "--app", "com.example.shop", "--name", "ios"] + db)
            #expect(created.status == 0)
            let key = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(key.hasPrefix("dwk_") && key.count == 47)
            #expect(created.error.contains("shown only this once"))
            let listed = try CLI.run(["keys", "list", "--format", "json"] + db)
            #expect(!listed.output.contains(key))
            let keys = try JSONDecoder().decode([Credential].self, from: Data(listed.output.utf8))
            let id = try #require(keys.first?.id)
            #expect(keys.first?.app == "com.example.shop")
            #expect(try CLI.run(["keys", "list"] + db).output.contains("active"))

            let server = try CLI.start(["serve", "--port", "0", "--log-level", "debug"] + db)
            let port = try await server.port()
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            func ingest(_ key: String?) async throws -> Int {
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/reports")!)
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
                request.httpBody = try Data(
                    contentsOf: CLI.repository.appendingPathComponent("schemas/examples/valid/spec-example.json"))
                let (_, response) = try await session.data(for: request)
                return (response as? HTTPURLResponse)?.statusCode ?? 0
            }
            #expect(try await ingest(nil) == 401)
            #expect(try await ingest(key) == 202)
            #expect(try await ingest(key + "x") == 401)
            #expect(try CLI.run(["keys", "revoke", id] + db).status == 0)
            // The collector forgets a revoked key within its cache's 2 seconds.
            let refused = try await eventually(within: .seconds(3), every: .milliseconds(100)) {
                try await ingest(key) == 401
            }
            #expect(refused)
            #expect(try await server.terminate() == 0)
            let log = server.readLog()
            #expect(log.contains("Ingest needs an ingest key"))
            #expect(!log.contains(key.dropFirst(4)))
            #expect(try CLI.run(["keys", "list"] + db).output.contains("revoked"))
            let unknown = try CLI.run(["keys", "revoke", "key_0000000000000000"] + db)
            #expect(unknown.status != 0)
            #expect(unknown.error.contains("No ingest key has the id"))
        }
    }

    @Test(
        "tokens create reads only unless --scope asks for more, list shows each token's scope, and a bad scope names the choices",
        arguments: Storage.allCases)
    func tokenScopes(storage: Storage) throws {
        try CLI.withDatabase(on: storage) { _, db in
            #expect(try CLI.run(["tokens", "create", "--name", "grafana", "--create"] + db).status == 0)
            let triage = try CLI.run(["tokens", "create", "--name", "oncall", "--scope", "triage"] + db)
            #expect(triage.status == 0)
            #expect(triage.error.contains("with the 'triage' scope"), "\(triage.error)")
            let listed = try CLI.run(["tokens", "list", "--format", "json"] + db)
            let tokens = try JSONDecoder().decode([Credential].self, from: Data(listed.output.utf8))
            #expect(tokens.map(\.name) == ["grafana", "oncall"])
            #expect(tokens.map(\.scope) == [.read, .triage])
            let table = try CLI.run(["tokens", "list"] + db).output.split(separator: "\n").map(String.init)
            #expect(table.first?.split(separator: " ").contains("SCOPE") == true, "\(table)")
            #expect(table.dropFirst().map { $0.split(separator: " ").map(String.init)[2] } == ["read", "triage"])

            let bad = try CLI.run(["tokens", "create", "--name", "x", "--scope", "owner"] + db)
            #expect(bad.status == 64)
            for word in ["--scope", "'owner'", "read", "triage", "admin"] {
                #expect(bad.error.contains(word), "\(word): \(bad.error)")
            }
        }
    }

    @Test("resolving an unknown group fails with one clear line", arguments: Storage.allCases)
    func resolveUnknown(storage: Storage) throws {
        try CLI.withDatabase(on: storage) { _, db in
            // Only commands that add something create a database; resolve refuses a missing one.
            #expect(try CLI.run(["keys", "create", "--create", "--app", "com.example.shop"] + db).status == 0)
            let result = try CLI.run(["resolve", "0123456789abcdef"] + db)
            #expect(result.status != 0)
            #expect(result.error.contains("No group has the id '0123456789abcdef'"))
            #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        }
    }

    @Test("serve --help documents --metrics-top-fields, and a count over 1000 fails naming the range before listening")
    func metricsTopFields() throws {
        let help = try CLI.run(["serve", "--help"])
        #expect(help.status == 0)
        // Help wraps its lines: read it as one.
        let text = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--metrics-top-fields <metrics-top-fields>"), "\(help.output)")
        #expect(text.contains("refreshed every 30 s; 0 for none (at most 1000). (default: 50)"), "\(help.output)")
        let result = try CLI.run(["serve", "--port", "0", "--metrics-top-fields", "1001"])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: --metrics-top-fields must be 0–1000.\n"), "\(result.error)")
    }

    @Test(
        "serve still starts with the deprecated --metrics-require-token and warns that it is the default; with --public-metrics it is refused"
    )
    func deprecatedMetricsFlag() async throws {
        try await CLI.withDatabase(on: .sqlite) { _, db in
            let server = try CLI.start(["serve", "--port", "0", "--metrics-require-token"] + db)
            _ = try await server.port()
            #expect(
                try await server.waitForLog(containing: "--metrics-require-token is deprecated"), "\(server.readLog())")
            #expect(try await server.terminate() == 0)
            let both = try CLI.run(["serve", "--port", "0", "--public-metrics", "--metrics-require-token"] + db)
            #expect(both.status == 64)
            #expect(both.error.hasPrefix("Error: --public-metrics and --metrics-require-token"), "\(both.error)")
        }
    }

    @Test(
        "serve refuses a --max-connections or --read-timeout out of range with a sentence, before it starts",
        arguments: [
            ("--max-connections", "0", "--max-connections must be 1–1048576 (each connection is a file descriptor)."),
            ("--max-connections", "1048577", "--max-connections must be 1–1048576"),
            ("--max-connections", "9223372036854775807", "--max-connections must be 1–1048576"),
            ("--read-timeout", "0", "--read-timeout must be 1–86400 seconds."),
            ("--read-timeout", "9223372036854775807", "--read-timeout must be 1–86400 seconds."),
        ])
    func refusesOutOfRangeServeOptions(option: String, value: String, problem: String) throws {
        let result = try CLI.run(["serve", "--port", "0", option, value, "--db", "/nonexistent/never-opened.sqlite"])
        #expect(result.status == 64, "\(option) \(value): exit \(result.status)")
        #expect(result.error.hasPrefix("Error: \(problem)"), "\(result.error)")
    }

    @Test("serve --ingest-mode direct counts a batch before its 202 without a log; an unknown mode is refused")
    func ingestModes() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("direct.sqlite").path
        let server = try CLI.start(["serve", "--port", "0", "--ingest-mode", "direct", "--db", path])
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let posted = try await CLI.postExampleBatch(port: try await server.port(), session: session)
        #expect(posted.status == 202, "\(posted.text)")
        #expect(!FileManager.default.fileExists(atPath: path + "-pending"), "direct mode made a log")
        let fields = try CLI.run(
            ["fields", "--format", "json", "--db", path] + CLI.exampleWindow)
        let summary = try JSONDecoder().decode(FieldsSummary.self, from: Data(fields.output.utf8))
        #expect(summary.fields.map(\.count) == [3, 1, 1])
        #expect(try await server.terminate() == 0)

        let refused = try CLI.run(["serve", "--port", "0", "--ingest-mode", "sometimes", "--db", path])
        #expect(refused.status == 64)
        #expect(
            refused.error.hasPrefix("Error: The value 'sometimes' is invalid for '--ingest-mode <logged|direct>'"),
            "\(refused.error)")
    }

    @Test(
        "the database is an SQLite file or a PostgreSQL URL, never both; conflicts and bad URLs fail in one line",
        arguments: [
            (["--db", "x.sqlite", "--database-url", "postgres://dw@db/x"], [:], "--db and --database-url exclude"),
            (
                [], ["DECODEWATCH_DB": "x.sqlite", "DECODEWATCH_DATABASE_URL": "postgres://dw@db/x"],
                "DECODEWATCH_DB and DECODEWATCH_DATABASE_URL are both set"
            ),
            (["--database-url", "mysql://dw:hunter2@db/x"], [:], "--database-url: The database URL must look like"),
            ([], ["DECODEWATCH_DATABASE_URL": "postgres://dw:hunter2@db/x?sslmode=on"], "sslmode 'on'"),
            (["--database-pool-size", "5"], ["DECODEWATCH_DATABASE_URL": ""], "applies to PostgreSQL only"),
        ] as [([String], [String: String], String)])
    func databaseChoice(arguments: [String], environment: [String: String], problem: String) throws {
        let result = try CLI.run(["fields"] + arguments, environment: environment)
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: ") && result.error.contains(problem), "\(result.error)")
        #expect(!result.error.contains("hunter2"))
    }

    @Test(
        "bad filters fail before touching the database",
        arguments: [["--kind", "oops"], ["--since", "yesterday"], ["--limit", "0"]])
    func badFilters(arguments: [String]) throws {
        let result = try CLI.run(["fields", "--db", "/nonexistent/folder/x.sqlite"] + arguments)
        #expect(result.status != 0)
        #expect(result.error.contains(arguments[0].dropFirst(2)))
    }
}

/// Runs the built `decodewatch` executable.
enum CLI {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("decodewatch")
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "decodewatch-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    typealias Result = ProcessResult

    /// Runs the executable to its end; one that is still running after `timeout` seconds is sent SIGKILL,
    /// so a command that hangs fails its test (status 9) instead of stalling the whole run.
    ///
    /// The command sees no stored profile unless `environment` names a config folder (`XDG_CONFIG_HOME`): profiles
    /// of the person running the tests would otherwise send its commands to their collector.
    /// - Parameter input: written to the command's standard input, which is then closed; `nil` leaves the test's own.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil, timeout: TimeInterval = 120
    ) throws -> Result {
        try Subprocess.run(
            executable, arguments,
            environment: ProcessInfo.processInfo.environment.merging(withoutProfiles) { $1 }.merging(environment) {
                $1
            },
            input: input.map { Data($0.utf8) }, timeout: timeout)
    }

    /// The environment that hides the profiles of the person running the tests: a config folder that never exists.
    static let withoutProfiles = [
        "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("decodewatch-no-profiles")
            .path,
        "DECODEWATCH_PROFILE": "",
    ]

    /// The day the example batch is posted on: yesterday (UTC), so that the dashboard's windows and the collector's
    /// retention hold it whatever day the tests run.
    static let exampleDay: String = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(-86_400))
    }()

    /// The hour of the example batch's reports, as `--since` and `--until`.
    static let exampleWindow = ["--since", "\(exampleDay)T09:00:00Z", "--until", "\(exampleDay)T10:00:00Z"]

    /// Posts `schemas/examples/valid/github-issues.json` (three breaking fields of com.example.octo, in the
    /// hour from 09:00Z), moved to ``exampleDay``, to a collector on this port.
    static func postExampleBatch(port: Int, session: URLSession) async throws -> HTTPAnswer {
        let example = try String(
            contentsOf: repository.appendingPathComponent("schemas/examples/valid/github-issues.json"), encoding: .utf8)
        return try await TestHTTPClient(port: port, session: session).post(
            batch: Data(example.replacingOccurrences(of: "2026-11-21", with: exampleDay).utf8))
    }

    /// Runs `body` with a temporary folder that holds a fresh database of `storage`, then removes the folder.
    /// - Parameter body: gets the folder and the store flags for the commands.
    static func withDatabase<T>(
        on storage: Storage, _ body: (_ folder: URL, _ db: [String]) async throws -> T
    ) async throws -> T {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder, try storage.flags(in: folder))
    }

    /// ``withDatabase(on:_:)`` for a test that starts no collector.
    static func withDatabase<T>(on storage: Storage, _ body: (_ folder: URL, _ db: [String]) throws -> T) throws -> T {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder, try storage.flags(in: folder))
    }

    /// Runs `body` with `decodewatch serve` on a fresh database of `storage`, then stops the collector and
    /// expects it to exit 0.
    /// - Parameter body: gets the store flags for the other commands, the collector's port and a session.
    static func withCollector(
        on storage: Storage, _ body: (_ db: [String], _ port: Int, _ session: URLSession) async throws -> Void
    ) async throws {
        try await withDatabase(on: storage) { _, db in
            let server = try start(["serve", "--port", "0"] + db)
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            do {
                try await body(db, try await server.port(), session)
            } catch {
                _ = try? await server.terminate()
                throw error
            }
            #expect(try await server.terminate() == 0)
        }
    }

    /// ``withCollector(on:_:)`` with the example batch (``postExampleBatch(port:session:)``) posted and acknowledged
    /// first.
    static func withExampleCollector(
        on storage: Storage, _ body: (_ db: [String], _ port: Int, _ session: URLSession) async throws -> Void
    ) async throws {
        try await withCollector(on: storage) { db, port, session in
            let posted = try await postExampleBatch(port: port, session: session)
            #expect(posted.status == 202, "\(posted.text)")
            try await body(db, port, session)
        }
    }

    /// Starts the executable with `arguments`; given `ulimit` (such as `-Sn 256`), through `sh`, whose `ulimit` sets
    /// the limit the collector inherits.
    static func start(_ arguments: [String], ulimit: String? = nil) throws -> RunningServer {
        let process = Process()
        if let ulimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit \(ulimit) && exec \"$0\" \"$@\"", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return RunningServer(process: process, log: error.fileHandleForReading)
    }

    /// A `decodewatch serve` process.
    final class RunningServer: @unchecked Sendable {
        let process: Process
        private let lock = NSLock()
        private var logged = Data()

        /// Reads the log on a thread of its own as it is written: a log pipe nobody reads fills after a few
        /// hundred batches and would stall the collector at its next line, and a test waits for a line
        /// without blocking on the pipe.
        init(process: Process, log: FileHandle) {
            self.process = process
            Thread { [weak self] in
                while case let data = log.availableData, !data.isEmpty {
                    self?.lock.withLock { self?.logged.append(data) }
                }
            }.start()
        }

        /// Reads the log until the collector says which port it listens on.
        func port() async throws -> Int {
            let port = try await pollLog { text in
                text.range(of: #"http\.port=(\d+)"#, options: .regularExpression).map {
                    Int(text[$0].dropFirst("http.port=".count))!
                }
            }
            guard let port else { throw CancellationError() }
            return port
        }

        /// Everything the server logged so far.
        func readLog() -> String {
            lock.withLock { String(decoding: logged, as: UTF8.self) }
        }

        /// Waits up to 10 seconds for the log to hold `line`.
        /// - Returns: whether it does.
        func waitForLog(containing line: String) async throws -> Bool {
            try await pollLog { $0.contains(line) ? true : nil } ?? false
        }

        /// Reads the log for up to 10 seconds until `find` finds something in it: the log is a pipe the collector
        /// writes to, which announces nothing a test could await.
        private func pollLog<Found>(_ find: (String) -> Found?) async throws -> Found? {
            try await eventuallyFound { find(readLog()) }
        }

        /// Sends SIGTERM and waits up to 10 seconds for the exit status; one still running then is killed.
        func terminate() async throws -> Int32 {
            process.terminate()
            return try await process.exit(within: .seconds(10))
        }
    }
}

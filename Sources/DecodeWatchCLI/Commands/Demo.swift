import ArgumentParser
import DecodeWatch
import DecodeWatchCore
import DecodeWatchServer
import DecodeWatchStore
import DecodeWatchStoreSQLite
import Foundation
import Logging
import ServiceLifecycle

extension DecodeWatchCommand {
    /// `decodewatch demo`: a self-contained tour on a temporary database.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Start a collector on a temporary database, decode broken payloads through the SDK, show the fields.")

        func run() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "decodewatch-demo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try SQLiteReportStore(path: folder.appendingPathComponent("demo.sqlite").path)
            var logger = Logger(label: "decodewatch.demo")
            logger.logLevel = .error
            let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
            let app = buildApplication(
                configuration: ServerConfiguration(port: 0), store: store, logger: logger,
                onServerRunning: { portContinuation.yield($0) })
            // In a terminal the demo keeps serving so the dashboard can be looked at; piped or in CI it ends.
            let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
            let services = ServiceGroup(
                configuration: .init(
                    services: [app], gracefulShutdownSignals: interactive ? [.sigint, .sigterm] : [], logger: logger))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { portContinuation.finish() }  // a server that cannot start ends the wait for its port
                    try await services.run()
                }
                var iterator = ports.makeAsyncIterator()
                guard let port = await iterator.next() else {
                    try await group.next()  // rethrows why the collector did not start
                    return
                }
                print("Collector listening on http://127.0.0.1:\(port) (database in \(folder.path))")
                print(
                    "Four installs of com.example.shop report through the SDK: three decode "
                        + "\(DemoPayloads.clean.count * 30) good responses each and the "
                        + "\(DemoPayloads.payloads.count) broken ones; a fourth, on 5.3.0, breaks a field marked "
                        + "resolved…\n")
                func session(_ index: Int, version: String, _ decode: (Reporter) -> Void) async {
                    let reporter = Reporter(
                        configuration: ReporterConfiguration(
                            collectorURL: URL(string: "http://127.0.0.1:\(port)")!,
                            app: AppInfo(id: "com.example.shop", version: version, platform: "iOS"),
                            installID: "demo-install-\(index)",
                            // One tester's build in staging, to filter by on the dashboard; the app store's in
                            // production (the demo may run from a debug build, which would say `debug`).
                            environment: index == 3 ? "staging" : EnvironmentName.production,
                            spoolDirectory: folder.appendingPathComponent("spool-\(index)")))
                    decode(reporter)
                    let pending = reporter.pendingReports().count
                    await reporter.flush()
                    print(
                        "install \(index) of 4 (app \(version), \(reporter.configuration.environment)): "
                            + "\(Plural.count(pending, "distinct failure")) captured, "
                            + "\(Plural.count(reporter.statistics.sentBatches, "batch", plural: "batches")) uploaded")
                }
                for (index, version) in ["5.1.0", "5.2.0", "5.2.0"].enumerated() {
                    await session(index + 1, version: version) {
                        DemoPayloads.decodeSession(with: $0, cleanPerEndpoint: 30)
                    }
                }
                // The device field is marked resolved, then release 5.3.0 breaks on it again: a regression.
                let week = FieldsQuery(since: Date().addingTimeInterval(-86_400), until: Date().addingTimeInterval(60))
                if let device = try await store.fields(week).fields.first(where: { $0.path == "$.system" }) {
                    try await store.resolve(group: device.group, at: Date())
                    print("marked \(device.endpoint) \(device.path) resolved")
                }
                try await Task.sleep(for: .milliseconds(20))
                await session(4, version: "5.3.0") { DemoPayloads.decodeDevice(with: $0) }
                let summary = try await store.fields(
                    FieldsQuery(since: Date().addingTimeInterval(-86_400), until: Date()))
                print("\n" + FieldsRenderer.table(summary))
                if let sample = summary.fields.first(where: { $0.sample.snippet?.contains("<redacted>") == true }) {
                    print("A redacted sample (\(sample.path)): \(sample.sample.snippet ?? "")\n")
                }
                let dashboard = "http://127.0.0.1:\(port)/"
                print("Try it yourself: decodewatch serve, then decodewatch fields (see README.md).")
                guard interactive else {
                    print("The dashboard was at \(dashboard); run the demo in a terminal to keep it open.")
                    await services.triggerGracefulShutdown()
                    return
                }
                print("The dashboard: \(dashboard) (Ctrl-C stops the demo and deletes its database).")
                try await group.next()
            }
        }
    }
}

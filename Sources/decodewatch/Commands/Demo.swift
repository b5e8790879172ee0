import ArgumentParser
import DecodeWatchCore
import DecodeWatchServer
import DecodeWatchStore
import DecodeWatchZlib
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DecodeWatchCommand {
    /// `decodewatch demo`: a self-contained tour on a temporary database.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a collector on a temporary database, send it broken-decode reports, show the fields.")

        func run() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decodewatch-demo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try SQLiteReportStore(path: folder.appendingPathComponent("demo.sqlite").path)
            var logger = Logger(label: "decodewatch.demo")
            logger.logLevel = .error
            let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
            let app = buildApplication(
                configuration: ServerConfiguration(port: 0), store: store, logger: logger,
                onServerRunning: { portContinuation.yield($0) })
            let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await services.run() }
                var iterator = ports.makeAsyncIterator()
                guard let port = await iterator.next() else { return }
                print("Collector listening on http://127.0.0.1:\(port) (database in \(folder.path))\n")
                for batch in DemoBatches.make(now: Date()) {
                    let answer = try await Self.send(batch, to: port)
                    print("POST /v1/reports  \(batch.reports.count) reports from \(batch.installID ?? "?") → \(answer)")
                }
                let summary = try await store.fields(FieldsQuery(since: Date().addingTimeInterval(-86_400), until: Date()))
                print("\n" + FieldsRenderer.table(summary))
                print("Try it yourself: decodewatch serve, then decodewatch fields (see README.md).")
                await services.triggerGracefulShutdown()
            }
        }

        private static func send(_ batch: ReportBatch, to port: Int) async throws -> String {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/reports")!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("deflate", forHTTPHeaderField: "Content-Encoding")
            request.httpBody = try Zlib.compress(JSONEncoder().encode(batch))
            let (data, response) = try await URLSession.shared.data(for: request)
            return "\((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: data, as: UTF8.self))"
        }
    }
}

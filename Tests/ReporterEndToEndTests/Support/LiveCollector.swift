import DecodeWatchCore
import DecodeWatchServer
import DecodeWatchStore
import DecodeWatchStoreSQLite
import Foundation
import Hummingbird
import Logging

/// The real collector, started and stopped on demand, for end-to-end tests of the SDK.
final class LiveCollector: @unchecked Sendable {
    let store: SQLiteReportStore
    private(set) var port: Int
    private var task: Task<Void, any Error>?

    init(databasePath: String) throws {
        store = try SQLiteReportStore(path: databasePath)
        port = 0
    }

    /// Starts listening, on the previous port when there was one, and returns the port.
    @discardableResult
    func start(configuration: ServerConfiguration = ServerConfiguration()) async throws -> Int {
        var configuration = configuration
        configuration.port = port
        var logger = Logger(label: "collector")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = buildApplication(
            configuration: configuration, store: store, logger: logger, onServerRunning: { continuation.yield($0) })
        task = Task {
            defer { continuation.finish() }  // a server that cannot start must not leave start() waiting
            try await app.runService(gracefulShutdownSignals: [])
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            _ = try await task?.value  // rethrows why the server did not start, e.g. the port is taken
            throw CancellationError()
        }
        port = bound
        return port
    }

    /// Stops listening and waits until the port is closed.
    func stop() async {
        task?.cancel()
        _ = await task?.result
        task = nil
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Total report count over the last two days.
    func totalCount() async throws -> Int {
        let now = Date()
        let summary = try await store.fields(
            FieldsQuery(since: now.addingTimeInterval(-2 * 86_400), until: now.addingTimeInterval(3600), limit: 1000))
        return summary.fields.reduce(0) { $0 + $1.count }
    }
}

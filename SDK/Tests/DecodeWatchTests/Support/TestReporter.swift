import DecodeWatchWire
import Foundation

@testable import DecodeWatch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reporters for tests: a fresh spool directory each, fast retries, nothing sent unless asked.
enum TestReporter {
    static let app = AppInfo(id: "com.example.tests", version: "1.0.0", build: "1", platform: "Linux", os: "test")

    /// A fresh temporary directory.
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "decodewatch-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A reporter whose collector is `collector` (by default a port nobody listens on), reached through `session`
    /// (a ``StubCollector``'s, or by default a real one), its files through `files`.
    static func make(
        collector: URL = URL(string: "http://127.0.0.1:9")!, session: URLSession? = nil,
        spool: URL? = temporaryDirectory(), files: SpoolFiles = .system,
        _ adjust: (inout ReporterConfiguration) -> Void = { _ in }
    ) -> Reporter {
        var configuration = ReporterConfiguration(
            collectorURL: collector, app: app, spoolDirectory: spool,
            retry: ReporterConfiguration.RetryPolicy(
                baseDelay: 0.01, maxDelay: 0.05, jitter: 0.5, maxAttemptsPerFlush: 2, maxInlineDelay: 2))
        adjust(&configuration)
        return Reporter(configuration: configuration, session: session, files: files)
    }
}

/// Collects a reporter's events, to check what an app developer would see.
final class EventRecorder: Sendable {
    /// The fields of a ``ReporterEvent/batchRefused(batchID:status:code:message:retryIn:)``.
    struct Refusal: Equatable {
        let batchID: String
        let status: Int
        let code: String?
        let message: String
        let retryIn: TimeInterval
    }

    private let events = Locked<[ReporterEvent]>([])

    /// Every event so far, in order.
    var all: [ReporterEvent] { events.withLock { $0 } }

    /// The refusals so far, in order.
    var refusals: [Refusal] {
        all.compactMap {
            guard case .batchRefused(let batchID, let status, let code, let message, let retryIn) = $0 else {
                return nil
            }
            return Refusal(batchID: batchID, status: status, code: code, message: message, retryIn: retryIn)
        }
    }

    /// The hook to put in ``ReporterConfiguration/onEvent``.
    func record(_ event: ReporterEvent) {
        events.withLock { $0.append(event) }
    }
}

extension JSONDecoder {
    /// A decoder carrying a context by hand, the way an app without the convenience would.
    func watching(_ endpoint: String, _ reporter: Reporter, root: Any.Type? = nil) -> JSONDecoder {
        userInfo[.decodeWatch] = DecodeContext(endpoint: endpoint, rootType: root, reporter: reporter)
        return self
    }
}

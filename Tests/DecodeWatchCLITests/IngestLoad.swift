import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Clients that post distinct batches to a set of collectors, each batch sent again (to the next collector)
/// until one answers 202, and that remember what was acknowledged, to compare with what was stored.
final class IngestLoad: Sendable {
    private struct State {
        var next = 0
        var acknowledged: [ReplicaBatch] = []
        var stopped = false
        var givenUp: [Int] = []
        var statuses: [Int: Int] = [:]
    }

    /// How long a request may go unanswered before it counts as lost and the batch is sent again.
    static let requestTimeout: TimeInterval = 15

    let ports: [Int]
    private let session: URLSession
    private let state = Mutex(State())

    init(ports: [Int]) {
        self.ports = ports
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = Self.requestTimeout
        session = URLSession(configuration: configuration)
    }

    deinit { session.invalidateAndCancel() }

    /// Runs `clients` senders until ``stop()``; each ends once its current batch is acknowledged.
    func run(clients: Int) async {
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask {
                    while !self.state.withLock({ $0.stopped }) {
                        _ = await self.deliver(self.nextBatch(), firstPort: client % self.ports.count, rotate: true)
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                }
            }
        }
    }

    func stop() { state.withLock { $0.stopped = true } }

    /// The batches acknowledged so far, the ones that never were, and how often each status was answered.
    var results: (acknowledged: [ReplicaBatch], givenUp: [Int], statuses: [Int: Int]) {
        state.withLock { ($0.acknowledged, $0.givenUp, $0.statuses) }
    }

    func nextBatch() -> ReplicaBatch {
        state.withLock { state in
            defer { state.next += 1 }
            return ReplicaBatch(index: state.next)
        }
    }

    /// Sends a batch until it is acknowledged or `within` has passed.
    /// - Parameters:
    ///   - firstPort: the index of the collector tried first.
    ///   - rotate: whether each try goes to the next collector, as behind a load balancer.
    /// - Returns: whether it was acknowledged.
    func deliver(_ batch: ReplicaBatch, firstPort: Int, rotate: Bool, within: Duration = .seconds(120)) async -> Bool {
        let started = ContinuousClock.now
        var attempt = 0
        while ContinuousClock.now - started < within {
            let port = ports[(firstPort + (rotate ? attempt : 0)) % ports.count]
            attempt += 1
            let status = await post(batch, to: port)
            state.withLock { $0.statuses[status, default: 0] += 1 }
            if status == 202 {
                state.withLock { $0.acknowledged.append(batch) }
                return true
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
        state.withLock { $0.givenUp.append(batch.index) }
        return false
    }

    /// Posts a batch; 0 when no answer came.
    func post(_ batch: ReplicaBatch, to port: Int) async -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/reports")!)
        request.httpMethod = "POST"
        request.timeoutInterval = Self.requestTimeout
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = batch.body
        let response = try? await session.data(for: request).1 as? HTTPURLResponse
        return response?.statusCode ?? 0
    }

    /// `GET /readyz`; 0 when no answer came within `timeout` seconds.
    func readiness(of port: Int, timeout: TimeInterval = requestTimeout) async -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/readyz")!)
        request.timeoutInterval = timeout
        let response = try? await session.data(for: request).1 as? HTTPURLResponse
        return response?.statusCode ?? 0
    }
}

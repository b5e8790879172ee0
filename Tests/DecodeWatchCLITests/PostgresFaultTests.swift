import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Three collectors on one PostgreSQL that fails in every way it can while they ingest: none may stay
/// wedged, lose an acknowledged batch, count one twice, or outlive SIGTERM by more than 30 s.
///
/// The cluster is the test's own (``PrivateCluster``): it is stopped, frozen and made read-only.
@Suite("PostgreSQL faults")
struct PostgresFaultTests {
    /// A way the database fails.
    enum Fault: String, CaseIterable, CustomStringConvertible {
        /// `pg_ctl stop -m fast`, down for a while, started again.
        case stop
        /// Every session ended by an administrator while commits run.
        case terminate
        /// The postmaster and its backends frozen with SIGSTOP, as behind a network that went silent.
        case freeze
        /// Every transaction made read-only.
        case readOnly

        var description: String { rawValue }

        /// Whether the collectors can notice: a terminated session is replaced at once, so `/readyz`
        /// need not see it.
        var makesUnready: Bool { self != .terminate }
    }

    /// How long the database stays stopped.
    static let stopDuration: Duration = .seconds(10)
    /// How long it stays frozen or read-only.
    static let faultDuration: Duration = .seconds(15)
    /// How soon after the database is back every collector must ingest again and be ready.
    static let recoveryLimit: Duration = .seconds(30)
    /// How soon after SIGTERM a collector must have exited.
    static let exitLimit: Duration = .seconds(30)

    @Test("under load, each fault three times: every replica ingests again, totals are exact, SIGTERM ends each")
    func faultsNeverWedgeAReplica() async throws {
        let cluster = try PrivateCluster()
        defer { cluster.destroy() }
        var replicas: [CLI.RunningServer] = []
        defer {
            for replica in replicas where replica.process.isRunning { kill(replica.process.processIdentifier, SIGKILL) }
        }
        for _ in 0..<3 { replicas.append(try CLI.start(["serve", "--port", "0", "--database-url", cluster.url])) }
        var ports: [Int] = []
        for replica in replicas { ports.append(try await replica.port()) }
        let load = IngestLoad(ports: ports)
        for port in ports { #expect(await Self.waitUntilReady(port, load: load) != nil) }

        let sending = Task { await load.run(clients: 6) }
        for round in 1...3 {
            for fault in Fault.allCases {
                // The load runs undisturbed between faults.
                try await Task.sleep(for: .seconds(2))
                try await exercise(fault, round: round, cluster: cluster, load: load)
            }
        }
        load.stop()
        await sending.value

        let (acknowledged, givenUp, statuses) = load.results
        print("Faults: \(acknowledged.count) batches acknowledged; answers \(statuses.sorted { $0.key < $1.key })")
        #expect(givenUp.isEmpty, "batches never acknowledged: \(givenUp)")
        try await expectTotals(of: acknowledged, from: ports[0])

        // SIGTERM while the database is frozen and a batch waits on it: answered 503, exit in time.
        let frozen = try cluster.freeze()
        let waiting = Task { await load.post(load.nextBatch(), to: ports[0]) }
        // The batch reaches the frozen database and waits there; nothing announces that it does.
        try await Task.sleep(for: .seconds(1))
        try await Self.terminate(replicas[0])
        #expect(await waiting.value == 503)
        cluster.thaw(frozen)
        for replica in replicas.dropFirst() { try await Self.terminate(replica) }
        // How often a deadline had to end a transaction that would otherwise have held its request.
        let cutShort = replicas.map { $0.readLog().components(separatedBy: "did not finish the transaction").count - 1 }
        print("Faults: transactions ended by their deadline per replica: \(cutShort)")
    }

    /// Injects one fault under load, then checks that every collector was unready during it and ingests
    /// and is ready again soon after.
    private func exercise(_ fault: Fault, round: Int, cluster: PrivateCluster, load: IngestLoad) async throws {
        let watch = ReadinessWatch(load: load)
        switch fault {
        case .stop:
            try cluster.stopFast()
            try await Task.sleep(for: Self.stopDuration)
            try cluster.start()
        case .terminate:
            try cluster.terminateSessions()
        case .freeze:
            let frozen = try cluster.freeze()
            try await Task.sleep(for: Self.faultDuration)
            cluster.thaw(frozen)
        case .readOnly:
            try cluster.setReadOnly(true)
            try await Task.sleep(for: Self.faultDuration)
            try cluster.setReadOnly(false)
        }
        watch.end()
        let back = ContinuousClock.now
        var recovered: [Duration] = []
        for (index, port) in load.ports.enumerated() {
            let ingests = await load.deliver(
                load.nextBatch(), firstPort: index, rotate: false,
                within: Self.recoveryLimit - (ContinuousClock.now - back))
            #expect(ingests, "replica \(index) does not ingest \(Self.recoveryLimit) after \(fault) \(round)")
            let ready = await Self.waitUntilReady(
                port, load: load, within: Self.recoveryLimit - (ContinuousClock.now - back))
            #expect(ready != nil, "replica \(index) is not ready \(Self.recoveryLimit) after \(fault) \(round)")
            recovered.append(ContinuousClock.now - back)
        }
        let seen = await watch.statuses()
        if fault.makesUnready {
            for (index, statuses) in seen.enumerated() {
                #expect(
                    statuses.contains(503), "replica \(index) never answered 503 during \(fault) \(round): \(statuses)")
            }
        }
        print(
            "Fault \(fault) \(round): all replicas ingest and are ready after \(recovered.max() ?? .zero); /readyz: \(seen)"
        )
    }

    /// Reads the totals back and compares them with what was acknowledged: every count, install count and
    /// rate of every group.
    private func expectTotals(of acknowledged: [ReplicaBatch], from port: Int) async throws {
        let url = URL(
            string: "http://127.0.0.1:\(port)/v1/fields?since=2026-11-21T00:00:00Z&until=2026-11-22T00:00:00Z")!
        let body = try await URLSession.shared.data(from: url).0
        let summary = try #require(
            try? JSONDecoder().decode(FieldsSummary.self, from: body), "\(String(decoding: body, as: UTF8.self))")
        let stored = Dictionary(
            uniqueKeysWithValues: summary.fields.map {
                ("\($0.path) \($0.endpoint)", [Double($0.count), Double($0.installs), $0.rate])
            })
        let wanted = ReplicaBatch.expected(acknowledged).mapValues {
            [Double($0.count), Double($0.installs.count), Double($0.count) / Double($0.decodes)] as [Double?]
        }
        #expect(stored == wanted)
    }

    /// Polls `/readyz` until it answers 200.
    /// - Returns: how long that took, or `nil` when it did not within `within`.
    private static func waitUntilReady(_ port: Int, load: IngestLoad, within: Duration = .seconds(30)) async
        -> Duration?
    {
        let started = ContinuousClock.now
        let ready =
            (try? await eventually(within: within, every: .milliseconds(200)) {
                await load.readiness(of: port) == 200
            }) ?? false
        return ready ? ContinuousClock.now - started : nil
    }

    /// Sends SIGTERM and expects a clean exit within ``exitLimit``; one still running then is killed.
    private static func terminate(_ replica: CLI.RunningServer) async throws {
        let started = ContinuousClock.now
        replica.process.terminate()
        try await eventually(within: exitLimit, every: .milliseconds(100)) { !replica.process.isRunning }
        let took = ContinuousClock.now - started
        #expect(
            !replica.process.isRunning, "still running \(exitLimit) after SIGTERM:\n\(replica.readLog().suffix(3000))")
        if replica.process.isRunning {
            kill(replica.process.processIdentifier, SIGKILL)
            try await replica.process.exit()
        } else {
            #expect(replica.process.terminationStatus == 0, "\(replica.readLog().suffix(3000))")
        }
        print("Faults: a replica exited \(took) after SIGTERM")
    }
}

/// Polls every collector's `/readyz` while a fault lasts and keeps what each answered.
private final class ReadinessWatch: Sendable {
    private final class Record: Sendable {
        let state: Mutex<(ended: Bool, seen: [[Int]])>
        init(collectors: Int) { state = Mutex((false, Array(repeating: [], count: collectors))) }
    }

    private let record: Record
    private let polling: Task<Void, Never>

    init(load: IngestLoad) {
        let record = Record(collectors: load.ports.count)
        self.record = record
        polling = Task {
            await withTaskGroup(of: Void.self) { group in
                for (index, port) in load.ports.enumerated() {
                    group.addTask {
                        // A probe sent during the fault counts, whenever it is answered.
                        while !record.state.withLock({ $0.ended }) {
                            let status = await load.readiness(of: port)
                            record.state.withLock { $0.seen[index].append(status) }
                            try? await Task.sleep(for: .milliseconds(300))
                        }
                    }
                }
            }
        }
    }

    func end() { record.state.withLock { $0.ended = true } }

    /// What each collector answered, once the last probe is answered.
    func statuses() async -> [[Int]] {
        await polling.value
        return record.state.withLock { $0.seen }
    }
}

import DecodeWatchStore
import Foundation
import Testing

/// ``withDeadline(_:isArmed:onExpiry:expired:doomed:_:)``, the guard every PostgreSQL lease, transaction and
/// group commit runs under.
@Suite("Deadline")
struct DeadlineTests {
    struct Expired: Error {}

    @Test("an operation that ignores cancellation and never returns is answered at the deadline")
    func neverReturning() async throws {
        let started = ContinuousClock.now
        let expiries = Counter()
        let parked = Parked()
        await #expect(throws: Expired.self) {
            try await withDeadline(.milliseconds(200), onExpiry: { expiries.add() }, expired: { Expired() }) {
                // A query on a frozen socket: no answer and no cancellation handler.
                await withCheckedContinuation { parked.park($0) }
            }
        }
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(expiries.value == 1)
        parked.release()
    }

    @Test("a doomed operation is answered with the doom's error long before the deadline")
    func doomed() async throws {
        struct Closed: Error {}
        let started = ContinuousClock.now
        let parked = Parked()
        await #expect(throws: Closed.self) {
            try await withDeadline(
                .seconds(30), expired: { Expired() },
                doomed: { ContinuousClock.now - started > .milliseconds(200) ? Closed() : nil }
            ) { await withCheckedContinuation { parked.park($0) } }
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        parked.release()
    }

    @Test("an operation that ends in time returns its result and the deadline never fires")
    func inTime() async throws {
        let expiries = Counter()
        let result = try await withDeadline(.milliseconds(300), onExpiry: { expiries.add() }, expired: { Expired() }) {
            42
        }
        #expect(result == 42)
        // The point: the deadline's time passes, and it still does not fire.
        try await Task.sleep(for: .milliseconds(500))
        #expect(expiries.value == 0)
    }

    @Test("a disarmed deadline lets the operation run past it")
    func disarmed() async throws {
        let result = try await withDeadline(.milliseconds(50), isArmed: { false }, expired: { Expired() }) {
            // The point: an operation that outlasts the disarmed deadline.
            try await Task.sleep(for: .milliseconds(300))
            return "done"
        }
        #expect(result == "done")
    }

    @Test("the operation's error reaches the caller")
    func failing() async throws {
        struct Failed: Error {}
        await #expect(throws: Failed.self) {
            try await withDeadline(.seconds(5), expired: { Expired() }) { throw Failed() }
        }
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Holds a continuation until the test lets it go, as a query on a frozen socket holds its caller.
private final class Parked: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    func park(_ continuation: CheckedContinuation<Void, Never>) { lock.withLock { self.continuation = continuation } }
    func release() { lock.withLock { continuation }?.resume() }
}

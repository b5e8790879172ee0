import Synchronization

/// Thrown by ``answer(within:_:)`` when the operation has not ended in time.
struct DeadlinePassed: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "no answer within \(limit)" }
}

/// The operation's result, or ``DeadlinePassed`` once `limit` has passed, without waiting for the operation to end:
/// a call stuck on a database that does not answer (a connection pool waiting for a connection) may ignore
/// cancellation, and a probe must answer all the same. The operation is cancelled at the deadline and left to end.
func answer<Value: Sendable>(
    within limit: Duration, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let waiter = Waiter<Value>()
    return try await withCheckedThrowingContinuation { continuation in
        waiter.wait(continuation)
        let work = Task {
            let result: Result<Value, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            waiter.resume(with: result)
        }
        Task {
            try? await Task.sleep(for: limit)
            if waiter.resume(with: .failure(DeadlinePassed(limit: limit))) { work.cancel() }
        }
    }
}

/// A continuation resumed once, by whichever of the operation and the deadline comes first.
private final class Waiter<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, any Error>?>(nil)

    func wait(_ waiting: CheckedContinuation<Value, any Error>) {
        continuation.withLock { $0 = waiting }
    }

    /// Resumes the continuation unless it was resumed already.
    /// - Returns: whether this call resumed it.
    @discardableResult
    func resume(with result: Result<Value, any Error>) -> Bool {
        guard let waiting = continuation.withLock({ $0.take() }) else { return false }
        waiting.resume(with: result)
        return true
    }
}

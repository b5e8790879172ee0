import Synchronization

/// Runs `operation` and returns what it returns, or throws `expired()` once `timeout` has passed, whichever
/// comes first.
///
/// Why not a task group racing a timer: a group waits for all its children before it returns, and a
/// query on a PostgreSQL socket that is frozen, or that the pool handed out just as the server closed it,
/// ignores cancellation and may never return, so the caller would wait forever behind it. Here the caller
/// is answered at the deadline and the operation, in a task of its own, is cancelled, told through
/// `onExpiry` (which closes its connection, failing what it awaits) and left to end on its own.
///
/// - Parameters:
///   - timeout: how long the operation may take.
///   - isArmed: asked when the time is up; while it returns `false` the deadline does not apply (say, the
///     operation has moved on to a step with a deadline of its own).
///   - onExpiry: runs once when the deadline passes, before the caller gets `expired()`.
///   - expired: the error the caller gets at the deadline.
///   - doomed: asked every ``doomCheckInterval`` until the deadline: an error ends the wait at once (say, the
///     operation's connection closed, and what it awaits may never answer).
///   - operation: the work.
/// - Returns: the operation's result.
/// - Throws: what the operation threw, `expired()`, or `CancellationError` when the caller is cancelled.
package func withDeadline<Result: Sendable>(
    _ timeout: Duration,
    isArmed: @escaping @Sendable () -> Bool = { true },
    onExpiry: @escaping @Sendable () -> Void = {},
    expired: @escaping @Sendable () -> any Error,
    doomed: (@Sendable () -> (any Error)?)? = nil,
    _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let race = DeadlineRace<Result>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { caller in
            race.start(caller)
            let work = Task {
                do {
                    race.finish(.success(try await operation()))
                } catch {
                    race.finish(.failure(error))
                }
            }
            let timer = Task {
                let deadline = ContinuousClock.now + timeout
                while let doomed, ContinuousClock.now < deadline {
                    guard (try? await Task.sleep(for: min(doomCheckInterval, deadline - .now))) != nil else { return }
                    if let error = doomed() {
                        if race.finish(.failure(error)) { work.cancel() }
                        return
                    }
                }
                guard (try? await Task.sleep(until: deadline)) != nil, isArmed() else { return }
                if race.finish(.failure(expired()), before: onExpiry) { work.cancel() }
            }
            race.whenFinished {
                timer.cancel()
                work.cancel()
            }
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// How often ``withDeadline(_:isArmed:onExpiry:expired:doomed:_:)`` asks whether the operation is doomed.
package let doomCheckInterval: Duration = .milliseconds(100)

/// The caller of ``withDeadline(_:isArmed:onExpiry:expired:doomed:_:)`` and who answers it first.
private final class DeadlineRace<Result: Sendable>: Sendable {
    private struct State {
        var caller: CheckedContinuation<Result, any Error>?
        /// An answer that came before the caller was stored (cancelled at once).
        var early: Swift.Result<Result, any Error>?
        var answered = false
        var cleanup: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func start(_ caller: CheckedContinuation<Result, any Error>) {
        let early: Swift.Result<Result, any Error>? = state.withLock { state in
            guard let early = state.early else {
                state.caller = caller
                return nil
            }
            return early
        }
        if let early { caller.resume(with: early) }
    }

    /// Registers what stops the tasks once answered; runs it at once when already answered.
    func whenFinished(_ cleanup: @escaping @Sendable () -> Void) {
        let answered = state.withLock { state in
            if !state.answered { state.cleanup = cleanup }
            return state.answered
        }
        if answered { cleanup() }
    }

    /// Answers the caller unless it was answered already; `before` runs first when it was not.
    /// - Returns: whether this answer was the one given.
    @discardableResult
    func finish(_ answer: Swift.Result<Result, any Error>, before: () -> Void = {}) -> Bool {
        let won = state.withLock { state in
            guard !state.answered else { return false }
            state.answered = true
            return true
        }
        guard won else { return false }
        before()
        let (caller, cleanup): (CheckedContinuation<Result, any Error>?, (@Sendable () -> Void)?) = state.withLock {
            state in
            if state.caller == nil { state.early = answer }
            defer {
                state.caller = nil
                state.cleanup = nil
            }
            return (state.caller, state.cleanup)
        }
        caller?.resume(with: answer)
        cleanup?()
        return true
    }
}

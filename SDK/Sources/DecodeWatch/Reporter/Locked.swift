import Foundation

/// A value guarded by a lock, for state touched from decoding threads.
///
/// `NSLock` rather than `Synchronization.Mutex`, which needs iOS 18; the SDK supports iOS 15.
final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

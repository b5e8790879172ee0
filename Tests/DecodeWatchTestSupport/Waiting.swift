import Foundation

/// A wait that ran out of time: the thing waited for never happened.
public struct DeadlinePassed: Error, CustomStringConvertible {
    public let description: String

    public init(_ what: String, after timeout: Duration) {
        description = "\(what): not within \(timeout)"
    }
}

/// Runs `body`, and throws ``DeadlinePassed`` (cancelling it) when it has not finished within `timeout`, so that a
/// test waiting for something that never comes fails instead of stalling the whole run.
public func withDeadline<T: Sendable>(
    _ timeout: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let result = try await group.next(), let value = result else {
            throw DeadlinePassed(what, after: timeout)
        }
        return value
    }
}

/// Checks `condition` every `interval` until it holds or `timeout` passes: for states that announce no event, such
/// as a row another process commits or a line in a log file.
/// - Returns: whether the condition held in time.
@discardableResult
public func eventually(
    within timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(50),
    _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try await Task.sleep(for: interval)
    }
}

/// Like ``eventually(within:every:_:)``, for a value: checks `find` until it finds something or `timeout` passes.
/// - Returns: what it found, or `nil`.
public func eventuallyFound<Found>(
    within timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(50),
    _ find: () async throws -> Found?
) async throws -> Found? {
    var found: Found?
    try await eventually(within: timeout, every: interval) {
        found = try await find()
        return found != nil
    }
    return found
}

@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Holds back the failures captured while trying one alternative, until it is known to be the right one.
///
/// ``Either`` tries `A` before `B`. While `A` is tried on a `B` payload, lenient wrappers inside `A`
/// would report failures that are not failures at all; they go to a scope instead, which is
/// committed when `A` succeeds and dropped when it fails.
final class CaptureScope: @unchecked Sendable {
    /// The innermost open scope of the current task, if any.
    @TaskLocal static var current: CaptureScope?

    private let pending = Locked<[(reporter: Reporter, report: Report)]>([])

    /// Holds a report back.
    func append(_ report: Report, to reporter: Reporter) {
        pending.withLock { $0.append((reporter, report)) }
    }

    /// Passes the held reports on: to the enclosing scope if there is one, else to their reporters.
    func commit() {
        let reports = pending.withLock { held in
            defer { held.removeAll() }
            return held
        }
        let parent = CaptureScope.current
        for (reporter, report) in reports {
            if let parent { parent.append(report, to: reporter) } else { reporter.record(report) }
        }
    }

    /// Runs `body` with a fresh scope, committing its reports only when `body` returns.
    static func tentatively<T>(_ body: () throws -> T) rethrows -> T {
        let scope = CaptureScope()
        let value = try $current.withValue(scope) { try body() }
        scope.commit()
        return value
    }
}

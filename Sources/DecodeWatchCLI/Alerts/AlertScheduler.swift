import Foundation
import Logging
import ServiceLifecycle

/// Evaluates the alert rules inside `decodewatch serve` every ``interval``, as a `Service`.
///
/// It runs beside the HTTP server, never on the ingest path: an evaluation only reads the rollups and
/// writes its claims. Deliveries run in their own tasks, so a slow or unreachable webhook delays neither
/// ingest nor the next evaluation (its claims keep the same alert from being sent twice meanwhile).
struct AlertScheduler: Service {
    /// What an evaluation does.
    let evaluator: AlertEvaluator
    /// Time between evaluations.
    let interval: TimeInterval
    /// The clock; tests pass their own.
    var clock: @Sendable () -> Date = { Date() }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { deliveries in
                while !Task.isCancelled {
                    do {
                        for claimed in try await evaluator.evaluate(now: clock()) {
                            deliveries.addTask { await evaluator.deliver(claimed) }
                        }
                    } catch {
                        evaluator.logger.error("Alert evaluation failed", metadata: ["error": "\(error)"])
                    }
                    do { try await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000)) } catch { break }
                }
            }
        }
    }
}

/// The one interpreter of ``SQLStep`` chains. A backend supplies only how to run statements and read their rows;
/// the chain is walked here, the same for every backend.
///
/// The walk is written twice, once synchronous and once `async`, because Swift has no `reasync`: SQLite runs a
/// chain inside GRDB's synchronous transaction closure, which must not suspend, and PostgreSQL awaits each round
/// trip on its connection. Both walks only ask ``pending`` what runs next, so what a step means is decided once.
extension SQLStep {
    /// What this step waits for: the statements to run and how the chain continues with their rows (one result
    /// per statement, in order); `nil` once the chain is done.
    private var pending: (statements: [SQLStatement], resume: ([[SQLRecord]]) throws -> SQLStep)? {
        switch self {
        case .done: return nil
        case .run(let statement, let then): return ([statement], { try then($0[0]) })
        case .runEach(let statements, let then): return (statements, then)
        }
    }

    /// The result of a finished chain; a chain that is not finished is a programming error here.
    private var finished: Result {
        guard case .done(let result) = self else { preconditionFailure("The chain has statements left to run") }
        return result
    }

    /// Walks the chain to its end, running the statements of each step with `execute` (synchronously, as inside a
    /// SQLite transaction).
    /// - Parameter execute: runs statements in order and returns each one's rows.
    /// - Throws: what `execute` or a step throws.
    package func interpret(_ execute: ([SQLStatement]) throws -> [[SQLRecord]]) throws -> Result {
        var step = self
        while let next = step.pending { step = try next.resume(try execute(next.statements)) }
        return step.finished
    }

    /// Walks the chain to its end, awaiting `execute` for the statements of each step (as on a PostgreSQL
    /// connection).
    /// - Parameter execute: runs statements in order and returns each one's rows.
    /// - Throws: what `execute` or a step throws.
    package func interpret(_ execute: ([SQLStatement]) async throws -> [[SQLRecord]]) async throws -> Result {
        var step = self
        while let next = step.pending { step = try next.resume(try await execute(next.statements)) }
        return step.finished
    }
}

import DecodeWatchCore
import Synchronization

/// Contract documents already decoded by this process, by contract id.
///
/// A stored version never changes (a new import is a new id), so a decoded document stays right for as
/// long as its id is current: pages and queries that judge fields read the current ids and decode only
/// the versions they have not seen, instead of every document on every request.
package final class DecodedContracts: Sendable {
    private let specs = Mutex<[String: ContractSpec]>([:])

    package init() {}

    /// The decoded documents of these ids that are known.
    package func specs(_ ids: [String]) -> [String: ContractSpec] {
        specs.withLock { known in ids.reduce(into: [:]) { found, id in found[id] = known[id] } }
    }

    /// Remembers decoded documents and forgets those not current any more.
    /// - Parameters:
    ///   - decoded: newly decoded documents by id.
    ///   - current: every current id, when the caller read them all; `nil` keeps the others.
    package func remember(_ decoded: [String: ContractSpec], current: Set<String>?) {
        specs.withLock { known in
            known.merge(decoded) { _, new in new }
            if let current { known = known.filter { current.contains($0.key) } }
        }
    }
}

import DecodeWatchCore

extension FieldsReader {
    /// The summary of a page of groups: its facts (``facts(of:)``) and each group's distinct installs, counted
    /// exactly while no install sketch lies in the group's window, otherwise estimated (``InstallSketches``).
    /// - Parameters:
    ///   - groups: the rows of ``groups``.
    ///   - tx: the read transaction that read them.
    func summary(of groups: [SQLRecord], in tx: any SQLTransaction) throws -> FieldsSummary {
        let facts = try facts(of: groups)
        let results = try tx.run(facts.statements)
        let exact = Dictionary(
            try results[2].map { (try $0.integer("group_seq"), try $0.count("installs")) }, uniquingKeysWith: max)
        let sketches = results[4]
        let sketched = Set(try sketches.map { try $0.integer("group_seq") }).sorted()
        guard !sketched.isEmpty else { return try facts.summary(results, installs: exact) }
        let hashes = try tx.run(installHashes(of: sketched))
        let estimates = try InstallSketches.estimates(sketches: sketches, hashes: hashes) {
            try $0.integer("group_seq")
        }
        return try facts.summary(results, installs: exact.merging(estimates) { $1 })
    }

    /// The distinct install hashes these groups kept in the window (in the query's environment), to merge into their
    /// sketches.
    /// - Parameter groups: the groups' `group_seq`.
    private func installHashes(of groups: [Int64]) -> SQLStatement {
        inEnvironment(
            "DISTINCT group_seq, install_hash", from: \.installs, columns: "group_seq, install_hash, environment",
            ofPage: groups)
    }
}

extension Array {
    /// The elements with the most failures first, then by group id, as the summary orders groups.
    ///
    /// Sorts positions by keys read once, then places each element once: wide elements (several strings)
    /// moved by a sort cost a retain and a release per string per move, which over 10,000 groups took
    /// longer than the query that read them.
    func mostFailuresFirst(count: (Element) -> Int, group: (Element) -> String) -> [Element] {
        let counts = map(count)
        let groups = map(group)
        return indices.sorted { a, b in counts[a] != counts[b] ? counts[a] > counts[b] : groups[a] < groups[b] }
            .map { self[$0] }
    }
}

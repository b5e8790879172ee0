/// The arguments of `IngestBench generate`: `[--light] DIR COUNT [INSTALLS] [--seed S]`.
struct GenerateArguments {
    /// The usage lines of `generate`.
    static let usage = """
          IngestBench generate DIR COUNT [INSTALLS] [--seed S]
                writes COUNT realistic deflate batches to DIR (the distributions of realistic_batches.py: 100
                reports of 30 skewed groups, raw endpoints with ids, about 6 KB deflate and 37 KB JSON each),
                sent by INSTALLS installs (500 by default); the same seed (default 1) writes the same batches
          IngestBench generate --light DIR COUNT [INSTALLS]
                the old light shape no app sends (4 endpoints without ids, 4 short paths, 30-byte snippets,
                at most 16 groups), from INSTALLS installs in turn
        """

    /// Where the batches go.
    var folder: String
    /// How many batches.
    var count: Int
    /// How many installs send them.
    var installs = 500
    /// The seed of the realistic batches.
    var seed = "1"
    /// Whether to write the old light shape.
    var light = false

    /// Reads the arguments after `generate`; nil when they do not fit the usage.
    init?(_ arguments: ArraySlice<String>) {
        var positional: [String] = []
        var rest = arguments
        while let argument = rest.popFirst() {
            switch argument {
            case "--light": light = true
            case "--seed":
                guard let seed = rest.popFirst() else { return nil }
                self.seed = seed
            default: positional.append(argument)
            }
        }
        guard (2...3).contains(positional.count), let count = Int(positional[1]), count >= 0 else { return nil }
        folder = positional[0]
        self.count = count
        if positional.count == 3 {
            guard let installs = Int(positional[2]), installs > 0 else { return nil }
            self.installs = installs
        }
    }
}

import Foundation

// IngestBench: writes ingest batches, and measures the CPU limit of ingest on them.
let usage = """
    usage:
    \(GenerateArguments.usage)
      IngestBench cpu DIR SECONDS
            the CPU limit: inflate + validate + fold + redact DIR's first 2,000 batches in a loop, one core,
            in CPU µs per batch with each step's share, against a zlib and a libdeflate inflate of the same batches
    """

/// Prints the usage on standard error and exits with status 2.
func exitWithUsage() -> Never {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "generate":
    guard let options = GenerateArguments(arguments.dropFirst(2)) else { exitWithUsage() }
    let folder = URL(fileURLWithPath: options.folder)
    let bodies: @Sendable (Range<Int>) throws -> [Data]
    if options.light {
        let light = LightBatches(installs: options.installs)
        bodies = { try light.bodies($0) }
    } else {
        let realistic = RealisticBatches(seed: options.seed, installs: options.installs)
        bodies = { realistic.bodies($0) }
    }
    print(try await BatchFiles.write(count: options.count, to: folder, bodies: bodies))
case "cpu" where arguments.count == 4:
    guard let seconds = Int(arguments[3]) else { exitWithUsage() }
    print(try cpuLoop(folder: URL(fileURLWithPath: arguments[2]), seconds: seconds))
default:
    exitWithUsage()
}

import Foundation

/// What a finished process printed, and how it ended.
public struct ProcessResult: Sendable {
    /// The exit status, or the signal's number when it was killed.
    public let status: Int32
    public let output: String
    public let error: String
}

/// Runs helper programs (the CLI, psql, curl, python) to their end, never longer than a deadline.
public enum Subprocess {
    /// Runs `executable` to its end; one still running after `timeout` seconds is sent SIGKILL, so that a command
    /// that hangs fails its test (status 9) instead of stalling the whole run.
    /// - Parameters:
    ///   - environment: the whole environment; `nil` keeps the test's own.
    ///   - input: written to the standard input, which is then closed; `nil` leaves the test's own.
    ///   - mergeError: whether standard error goes to ``ProcessResult/output`` too, in the order written.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        mergeError: Bool = false, timeout: TimeInterval = 120
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        // Output goes to files, not pipes: a child that fills a pipe nobody drains yet, or a grandchild (a browser's
        // helpers) that keeps one open after the child exits, would otherwise block the test.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputFile = folder.appendingPathComponent("output")
        let errorFile = folder.appendingPathComponent("error")
        for file in [outputFile, errorFile] { FileManager.default.createFile(atPath: file.path, contents: nil) }
        let output = try FileHandle(forWritingTo: outputFile)
        let error = mergeError ? output : try FileHandle(forWritingTo: errorFile)
        process.standardOutput = output
        process.standardError = error
        let feed = input.map { _ in Pipe() }
        if let feed { process.standardInput = feed }
        try process.run()
        let watchdog = DispatchWorkItem { [process] in
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        if let input, let feed {
            feed.fileHandleForWriting.write(input)
            try feed.fileHandleForWriting.close()
        }
        process.waitUntilExit()  // within `timeout`: the watchdog ends it then
        try output.close()
        if !mergeError { try error.close() }
        return ProcessResult(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            error: mergeError ? "" : String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }

    /// Runs a program found on the usual system paths; see ``run(_:_:environment:input:mergeError:timeout:)``.
    public static func run(
        tool: String, _ arguments: [String], input: Data? = nil, mergeError: Bool = false, timeout: TimeInterval = 120
    ) throws -> ProcessResult {
        try run(path(of: tool), arguments, input: input, mergeError: mergeError, timeout: timeout)
    }

    /// Where `tool` is installed, `/usr/bin/<tool>` when on none of the usual paths.
    public static func path(of tool: String) -> URL {
        let found = ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"]
            .map { URL(fileURLWithPath: $0).appendingPathComponent(tool) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return found ?? URL(fileURLWithPath: "/usr/bin/\(tool)")
    }
}

extension Process {
    /// Waits for the process to exit; one still running after `timeout` is sent SIGKILL, which ends it.
    /// - Returns: the exit status, or the signal's number.
    @discardableResult
    public func exit(within timeout: Duration = .seconds(30)) async throws -> Int32 {
        if try await !eventually(within: timeout, every: .milliseconds(20), { !isRunning }) {
            kill(processIdentifier, SIGKILL)
            guard try await eventually(within: .seconds(10), every: .milliseconds(20), { !isRunning }) else {
                throw DeadlinePassed("process \(processIdentifier) to exit after SIGKILL", after: .seconds(10))
            }
        }
        return terminationStatus
    }
}

import DecodeWatchTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("decodewatch demo")
struct DemoCommandTests {
    @Test("piped, as in CI, the demo prints a true-to-life table and where the dashboard was, then exits 0")
    func piped() throws {
        let result = try CLI.run(["demo"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Four installs of com.example.shop"))
        // The installs it announces are the ones it lists, each once.
        #expect((1...4).allSatisfy { result.output.contains("install \($0) of 4 (") }, "\(result.output)")
        #expect(!result.output.contains("install 0") && !result.output.contains("install 5"))
        #expect(result.output.contains("distinct failures captured, 1 batch uploaded"))
        #expect(result.output.contains("$.results[*].title"), "\(result.output)")
        // Good responses are decoded too, so rates look like an app's (a few percent, never 100 %),
        // and a field resolved before release 5.3.0 broke on it again is shown as regressed.
        #expect(result.output.contains("3.2%"))
        #expect(!result.output.contains("100.0%"))
        #expect(result.output.contains("regressed"))
        #expect(result.output.contains("5.3.0: 1"))
        #expect(result.output.contains("The dashboard was at http://127.0.0.1:"))
    }

    @Test(
        "in a terminal the demo keeps serving its dashboard until Ctrl-C, then exits 0",
        .timeLimit(.minutes(2)))
    func terminal() async throws {
        // `script` gives the demo a real terminal; a Ctrl-C byte written to it becomes SIGINT, as at a keyboard.
        // `exec` replaces script's shell, which as dash (CI's /bin/sh) would itself die of that SIGINT with 130.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", "exec \(CLI.executable.path) demo", "/dev/null"]
        process.environment = ProcessInfo.processInfo.environment.merging(["SHELL": "/bin/sh"]) { $1 }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // Read as it is written, so that waiting for the URL never blocks on the terminal's output.
        let demo = CLI.RunningServer(process: process, log: output.fileHandleForReading)

        let pattern = #"The dashboard: http://127\.0\.0\.1:\d+/"#
        let dashboard = try await eventuallyFound(within: .seconds(60), every: .milliseconds(100)) {
            let text = demo.readLog()
            return text.range(of: pattern, options: .regularExpression).flatMap {
                URL(string: String(text[$0].dropFirst("The dashboard: ".count)))
            }
        }
        let url = try #require(dashboard, "the demo never printed its dashboard's URL:\n\(demo.readLog())")

        // Still serving after the tour: the page lists the demo's broken fields.
        try await Task.sleep(for: .seconds(1))
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (page, response) = try await session.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: page, as: UTF8.self).contains("data-group="))

        input.fileHandleForWriting.write(Data([0x03]))
        let stopped = try await eventually { !process.isRunning }
        #expect(stopped, "Ctrl-C did not stop the demo")
        #expect(process.terminationStatus == 0)
    }
}

import ArgumentParser
import DecodeWatchTestSupport
import Foundation
import Testing

@testable import DecodeWatchCLI

@Suite struct DigestCommandTests {
    @Test("flags are checked before anything runs, with one clear line")
    func validation() throws {
        #expect(throws: (any Error).self) { try DecodeWatchCommand.Digest.parse(["--webhook", "not a url"]) }
        #expect(throws: (any Error).self) { try DecodeWatchCommand.Digest.parse(["--since", "10m"]) }
        #expect(throws: (any Error).self) { try DecodeWatchCommand.Digest.parse(["--format", "pdf"]) }
        #expect(throws: (any Error).self) { try DecodeWatchCommand.Digest.parse(["--auto-resolve-after", "soon"]) }
        #expect(throws: (any Error).self) { try DecodeWatchCommand.Digest.parse(["--environment", "qa/eu"]) }
        let command = try DecodeWatchCommand.Digest.parse([
            "--since", "7d", "--format", "html", "--app", "com.example.shop",
        ])
        #expect(command.format == .html && command.since?.text == "7d" && command.app == "com.example.shop")
        do {
            _ = try DecodeWatchCommand.Digest.parse(["--webhook", "ftp://example.com/x"])
            Issue.record("ftp webhook accepted")
        } catch {
            #expect(
                DecodeWatchCommand.message(for: error).contains(
                    "--webhook 'ftp://example.com/x' must be an http(s) URL."))
        }
    }

    /// The `decodewatch` executable next to this test bundle (`swift build` / `swift test` put both in `.build/<config>`).
    static func executable() -> URL? {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("decodewatch")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    @Test(
        "an undeliverable webhook makes `decodewatch digest` exit non-zero with a clear message",
        .timeLimit(.minutes(1)))
    func failureExitCode() async throws {
        let binary = try #require(Self.executable(), "build the executable first: swift build")
        let fixture = try await DigestFixture.seededDay()
        let receiver = try await TestReceiver.webhook(statuses: [503])
        defer { receiver.cancel() }
        let result = try Subprocess.run(
            binary,
            [
                "digest", "--db", fixture.path, "--webhook", receiver.webhookURL.absoluteString, "--webhook-attempts",
                "1",
            ])
        let stderr = result.error
        #expect(result.status != 0)
        #expect(stderr.contains("did not accept the digest after 1 attempts (last: HTTP 503)"), "stderr: \(stderr)")
        #expect(receiver.requests.count == 1)
    }
}

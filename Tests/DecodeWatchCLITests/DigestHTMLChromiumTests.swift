import DecodeWatchCore
import DecodeWatchTestSupport
import Foundation
import Logging
import Testing

@testable import DecodeWatchCLI

/// Opens the HTML digest in a real headless Chromium (Debian's `chromium`; CI installs it).
@Suite struct DigestHTMLChromiumTests {
    static func chromium() -> String? {
        let candidates = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init)
        for name in candidates {
            for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
                return folder + "/" + name
            }
        }
        return nil
    }

    /// Runs a program, killing it after `timeout` seconds; returns its exit status and standard output.
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 90) throws -> (Int32, String) {
        let result = try Subprocess.run(URL(fileURLWithPath: executable), arguments, timeout: timeout)
        return (result.status, result.output)
    }

    @Test(
        "the HTML digest renders in headless Chromium with its group cards and one SVG chart each",
        .timeLimit(.minutes(3)))
    func rendersInChromium() async throws {
        guard let chromium = Self.chromium() else {
            Issue.record(
                "chromium is not installed: install it (apt-get update && apt-get install -y chromium) to run this test."
            )
            return
        }
        let fixture = try await DigestFixture.seededDay()
        let file = fixture.folder.appendingPathComponent("digest.html")
        let job = DigestJob(period: DigestFixture.period, format: .html, outputPath: file.path)
        let result = try await job.run(store: fixture.store, now: DigestFixture.now, logger: Logger(label: "test"))
        let digest = result.digest
        let groups = Set((digest.new + digest.regressed + digest.growing + digest.fading).map(\.group))
        #expect(groups.count == 4)

        let profile = fixture.folder.appendingPathComponent("chromium-profile").path
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile)",
        ]
        let (status, dom) = try Self.run(chromium, common + ["--dump-dom", file.absoluteString])
        #expect(status == 0)
        #expect(dom.contains("<h1>DecodeWatch digest</h1>"))
        for group in groups { #expect(dom.contains("data-group=\"\(group)\""), "group \(group) missing from the DOM") }
        let cards = dom.components(separatedBy: "class=\"group ").count - 1
        let charts = dom.components(separatedBy: "<svg").count - 1
        #expect(cards >= groups.count)
        #expect(charts == cards)
        #expect(dom.contains("<rect x="))
        for section in ["id=\"new\"", "id=\"regressed\"", "id=\"growing\"", "id=\"fading\"", "id=\"endpoints\""] {
            #expect(dom.contains(section), "section \(section) missing")
        }

        // A phone-sized screenshot: the page lays out and paints.
        let shot = fixture.folder.appendingPathComponent("digest.png")
        let (shotStatus, _) = try Self.run(
            chromium, common + ["--window-size=390,844", "--screenshot=\(shot.path)", file.absoluteString])
        #expect(shotStatus == 0)
        let png = try Data(contentsOf: shot)
        #expect(png.count > 5_000)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}

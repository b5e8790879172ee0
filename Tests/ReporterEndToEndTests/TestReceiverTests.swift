import DecodeWatchTestSupport
import Foundation
import Testing

@Suite struct TestReceiverTests {
    @Test("a receiver stopped before its thread first accepts does not serve a newer receiver's reused descriptor")
    func stopBeforeAcceptDoesNotStealSocket() async throws {
        // Stopped at once, like the "collector down" receivers: its thread may not have started yet.
        var stopped: TestReceiver? = try await TestReceiver()
        await stopped?.stop()
        // The next socket gets the lowest free descriptor number, the old one if it was closed.
        let receiver = try await TestReceiver()
        stopped = nil
        let reporter = TestReporter.make(collector: receiver.url)
        reporter.countDecode(endpoint: "GET /x")
        await reporter.flush()
        #expect(await receiver.waitForRequests(1, timeout: .seconds(3)).count == 1)
    }
}

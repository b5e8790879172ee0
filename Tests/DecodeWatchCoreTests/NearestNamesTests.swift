import DecodeWatchCore
import Testing

@Suite("Nearest names for typos")
struct NearestNamesTests {
    @Test("known names come nearest first, ties by name; a suggestion only when it is close")
    func ordering() {
        let apps = ["com.example.shop", "com.example.admin", "org.other.app"]
        #expect(NearestNames.ordered(apps, by: "com.exmaple.shop").first == "com.example.shop")
        #expect(NearestNames.ordered(["b", "a", "c"], by: "x") == ["a", "b", "c"])
        #expect(NearestNames.ordered(apps, by: "com.example.shop", limit: 1) == ["com.example.shop"])
        #expect(NearestNames.suggestion(for: "sinse", in: ["since", "until", "limit"]) == "since")
        #expect(NearestNames.suggestion(for: "FIELDS", in: ["fields", "drift"]) == "fields")
        #expect(NearestNames.suggestion(for: "feilds", in: ["fields", "digest"]) == "fields")  // a swap is one edit
        #expect(NearestNames.suggestion(for: "verbose", in: ["since", "until"]) == nil)
    }

    @Test("a warning lists at most ten known values and says how many more there are")
    func warningListsTen() {
        let known = (1...12).map { "5.\($0).0" }
        let warning = QueryWarning.unknown(.version, value: "5.1.1", known: known, app: "com.example.shop")
        #expect(warning.code == "unknown_version")
        #expect(warning.message.hasPrefix("no reports from version '5.1.1' of app 'com.example.shop'; known versions: 5.1.0, "))
        #expect(warning.message.hasSuffix(" (2 more)."))
        let none = QueryWarning.unknown(.environment, value: "prod", known: [])
        #expect(none.message == "no reports from environment 'prod'; no environment has reported yet.")
    }
}

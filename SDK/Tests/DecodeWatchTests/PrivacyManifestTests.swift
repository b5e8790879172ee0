import Foundation
import Testing

@testable import DecodeWatch

/// The privacy manifest Xcode merges into the app's privacy report: shipped in the SDK's bundle, and saying what
/// the SDK collects and which required-reason APIs it calls (docs/sdk.md#privacy).
@Suite struct PrivacyManifestTests {
    func manifest() throws -> [String: Any] {
        let url = try #require(Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy"))
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        return try #require(plist as? [String: Any])
    }

    @Test("the manifest ships with the SDK and says it does not track")
    func noTracking() throws {
        let manifest = try manifest()
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyTrackingDomains"] as? [String])?.isEmpty == true)
    }

    @Test("the collected data are diagnostics and an install id, for app functionality, linked to no one")
    func collectedData() throws {
        let types = try #require(try manifest()["NSPrivacyCollectedDataTypes"] as? [[String: Any]])
        #expect(
            Set(types.compactMap { $0["NSPrivacyCollectedDataType"] as? String }) == [
                "NSPrivacyCollectedDataTypeOtherDiagnosticData", "NSPrivacyCollectedDataTypeDeviceID",
            ])
        for type in types {
            #expect(type["NSPrivacyCollectedDataTypeLinked"] as? Bool == false)
            #expect(type["NSPrivacyCollectedDataTypeTracking"] as? Bool == false)
            #expect(
                type["NSPrivacyCollectedDataTypePurposes"] as? [String] == [
                    "NSPrivacyCollectedDataTypePurposeAppFunctionality"
                ])
        }
    }

    @Test("the one required-reason API, file attributes of the spool, is declared with reason C617.1")
    func requiredReasonAPIs() throws {
        let apis = try #require(try manifest()["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        #expect(apis.count == 1)
        #expect(apis.first?["NSPrivacyAccessedAPIType"] as? String == "NSPrivacyAccessedAPICategoryFileTimestamp")
        #expect(apis.first?["NSPrivacyAccessedAPITypeReasons"] as? [String] == ["C617.1"])
    }
}

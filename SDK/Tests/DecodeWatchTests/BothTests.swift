import Foundation
import Testing

@testable import DecodeWatch

@Suite struct BothTests {
    struct LabelLook: Decodable, Equatable {
        let color: String
        let description: String?
    }

    @Test("Both decodes two models from the same object")
    func decodesBoth() throws {
        let labels = try JSONDecoder().decode([Both<Label, LabelLook>].self, from: Fixture.data("labels.json"))
        #expect(labels.count == 9)
        #expect(labels[0].first.name == "bug")
        #expect(labels[0].second == LabelLook(color: "d73a4a", description: "Something isn't working"))
    }

    @Test("Both fails when either half fails, at the failing field")
    func failsWithHalf() throws {
        let data = try Fixture.edited("labels.json", [([0, "color"], nil)])
        #expect {
            try JSONDecoder().decode([Both<Label, LabelLook>].self, from: data)
        } throws: { error in
            guard case .keyNotFound(let key, _) = error as? DecodingError else { return false }
            return key.stringValue == "color"
        }
    }
}

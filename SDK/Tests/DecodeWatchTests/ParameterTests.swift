import Foundation
import Testing

@testable import DecodeWatch

@Suite struct ParameterTests {
    struct IssuePatch: Codable, Equatable {
        var title: Parameter<String> = .absent
        var body: Parameter<String> = .absent
        var milestone: Parameter<Int> = .absent
    }

    struct HandWritten: Encodable {
        var state: Parameter<String>
        enum CodingKeys: CodingKey { case state }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeParameter(state, forKey: .state)
        }
    }

    func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("absent fields are left out, null is sent as null, values as values")
    func encodes() throws {
        #expect(try json(IssuePatch()) == "{}")
        #expect(
            try json(IssuePatch(title: .value("New title"), milestone: .null))
                == #"{"milestone":null,"title":"New title"}"#)
        #expect(try json(IssuePatch(body: Parameter(nil as String?))) == #"{"body":null}"#)
        #expect(try json(HandWritten(state: .absent)) == "{}")
        #expect(try json(HandWritten(state: .value("closed"))) == #"{"state":"closed"}"#)
    }

    @Test("decoding tells an absent key from a null from a value")
    func decodes() throws {
        let patch = try JSONDecoder().decode(IssuePatch.self, from: Data(#"{"title":"x","milestone":null}"#.utf8))
        #expect(patch == IssuePatch(title: .value("x"), body: .absent, milestone: .null))
        #expect(patch.title.wrapped == "x")
    }

    @Test("a value of the wrong type still fails")
    func wrongType() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(IssuePatch.self, from: Data(#"{"milestone":"v1"}"#.utf8))
        }
    }
}

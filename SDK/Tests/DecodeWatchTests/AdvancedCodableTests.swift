import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

/// A label colour turned from GitHub's hex text into components.
struct LabelColor: AdvancedCodable, Equatable {
    struct DecodingDTO: Decodable { let name: String; let color: String }
    struct EncodingDTO: Encodable { let name: String; let color: String }
    struct BadColor: Error {}

    let name: String
    let red: Int, green: Int, blue: Int

    init(dto: DecodingDTO) throws {
        guard dto.color.count == 6, let value = Int(dto.color, radix: 16) else { throw BadColor() }
        name = dto.name
        red = value >> 16
        green = (value >> 8) & 0xFF
        blue = value & 0xFF
    }

    var encodingDTO: EncodingDTO {
        EncodingDTO(name: name, color: String(format: "%02x%02x%02x", red, green, blue))
    }
}

@Suite struct AdvancedCodableTests {
    @Test("a DTO plus a transforming initializer decodes real labels")
    func decodes() throws {
        let colors = try JSONDecoder().decode([LabelColor].self, from: Fixture.data("labels.json"))
        #expect(colors[0].name == "bug")
        #expect(colors[0].red == 0xD7 && colors[0].green == 0x3A && colors[0].blue == 0x4A)
    }

    @Test("encoding goes through the encoding DTO")
    func encodes() throws {
        let colors = try JSONDecoder().decode([LabelColor].self, from: Fixture.data("labels.json"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(colors[0]), as: UTF8.self) == #"{"color":"d73a4a","name":"bug"}"#)
    }

    @Test("a transform error becomes dataCorrupted at the value, reported by an enclosing Safe")
    func transformError() throws {
        let data = try Fixture.edited("labels.json", [([3, "color"], "not-a-colour")])
        #expect {
            try JSONDecoder().decode([LabelColor].self, from: data)
        } throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
            return context.codingPath.map(\.stringValue) == ["Index 3"]
                && context.underlyingError is LabelColor.BadColor
        }
        let reporter = TestReporter.make()
        let colors = try JSONDecoder().decode(
            [Safe<LabelColor>].self, from: data, endpoint: "GET /repos/o/r/labels", reporter: reporter)
        #expect(colors.compactMap(\.value).count == 8)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.kind == .dataCorrupted)
        #expect(report.path == [3])
        #expect(report.expected == "LabelColor")
        #expect(report.snippet?.contains("not-a-colour") == true)
    }

    @Test("a DTO decoding error keeps its own kind and path")
    func dtoError() throws {
        let reporter = TestReporter.make()
        let data = try Fixture.edited("labels.json", [([1, "name"], nil)])
        _ = try JSONDecoder().decode([Safe<LabelColor>].self, from: data, endpoint: "GET /labels", reporter: reporter)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.kind == .keyNotFound)
        #expect(report.path == [1, "name"])
    }
}

import DecodeWatchTestSupport
import Foundation
import Testing

@testable import DecodeWatchServer

/// The published JSON Schema and the collector must agree: a batch the schema accepts is accepted
/// whole, and a batch it refuses is refused or has reports rejected.
@Suite("Schema agreement")
struct SchemaAgreementTests {
    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schemas")

    static func examples(_ folder: String) -> [String] {
        let url = schemas.appendingPathComponent("examples/\(folder)")
        return ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    @Test("the schema examples validate against the JSON Schema as their folder says")
    func examplesValidate() throws {
        #expect(Self.examples("valid").count >= 3)
        #expect(Self.examples("invalid").count >= 5)
        let verdicts = try Self.validateWithPython()
        for name in Self.examples("valid") { #expect(verdicts["valid/\(name)"] == true, "\(name)") }
        for name in Self.examples("invalid") { #expect(verdicts["invalid/\(name)"] == false, "\(name)") }
    }

    @Test("the collector accepts every valid example whole and refuses something in every invalid one")
    func collectorAgrees() async throws {
        try await TestCollector.run { collector in
            for name in Self.examples("valid") {
                let data = try Data(contentsOf: Self.schemas.appendingPathComponent("examples/valid/\(name)"))
                let answer = try await collector.ingest(data)
                #expect(answer.status == 202, "\(name): \(answer.text)")
                #expect(try answer.decoded(IngestAnswer.self).rejected.isEmpty, "\(name): \(answer.text)")
            }
            for name in Self.examples("invalid") {
                let data = try Data(contentsOf: Self.schemas.appendingPathComponent("examples/invalid/\(name)"))
                let answer = try await collector.ingest(data)
                let refused =
                    answer.status >= 400 || (try? answer.decoded(IngestAnswer.self))?.rejected.isEmpty == false
                #expect(refused, "\(name): \(answer.text)")
            }
        }
    }

    /// Validates every example with Python's `jsonschema` (Draft 2020-12), the reference validator.
    static func validateWithPython() throws -> [String: Bool] {
        let script = """
            import json, glob, os, sys, jsonschema
            root = sys.argv[1]
            schema = json.load(open(os.path.join(root, "report-batch.v1.schema.json")))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            result = {}
            for path in glob.glob(os.path.join(root, "examples", "*", "*.json")):
                name = os.path.relpath(path, os.path.join(root, "examples"))
                result[name] = validator.is_valid(json.load(open(path)))
            print(json.dumps(result))
            """
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, schemas.path])
        let data = Data(result.output.utf8)
        let problem = result.error
        guard result.status == 0 else {
            throw TestFailure("python3 with jsonschema is needed (pip install jsonschema): \(problem)")
        }
        return try JSONDecoder().decode([String: Bool].self, from: data)
    }
}

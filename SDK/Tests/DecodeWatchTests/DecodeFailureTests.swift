@_spi(WireInternals) import DecodeWatchWire
import Foundation
import Testing

@_spi(WireInternals) @testable import DecodeWatch

/// Path, kind and expected type extracted from real `DecodingError`s thrown by `JSONDecoder`.
@Suite struct DecodeFailureTests {
    func error(decoding data: Data) throws -> any Error {
        do {
            _ = try gitHubDecoder().decode([GitHubIssue].self, from: data)
        } catch {
            return error
        }
        throw CancellationError()
    }

    @Test("keyNotFound gets the missing key appended to its path")
    func keyNotFound() throws {
        let error = try error(decoding: Fixture.edited("issues.json", [([7, "user", "login"], nil)]))
        let failure = DecodeFailure(error: error, position: [], wrapped: [GitHubIssue].self)
        #expect(failure.path == [7, "user", "login"])
        #expect(failure.kind == .keyNotFound)
        #expect(failure.expected == nil)
    }

    @Test("typeMismatch names the type it expected, with its path unchanged")
    func typeMismatch() throws {
        let error = try error(decoding: Fixture.edited("issues.json", [([0, "user", "id"], "1000")]))
        let failure = DecodeFailure(error: error, position: [0], wrapped: GitHubIssue.self)
        #expect(failure.path == [0, "user", "id"])
        #expect(failure.kind == .typeMismatch)
        #expect(failure.expected == "Int")
        #expect(failure.message.contains("Int"))
    }

    @Test("a non-DecodingError is kind other at the wrapper's position")
    func otherError() {
        let failure = DecodeFailure(error: CancellationError(), position: [3, "comments"], wrapped: Int.self)
        #expect(failure.path == [3, "comments"])
        #expect(failure.kind == .other)
        #expect(failure.expected == "Int")
    }

    @Test("Optional is unwrapped in type names")
    func typeNames() {
        #expect(TypeName.of(String?.self) == "String")
        #expect(TypeName.of([GitHubIssue].self) == "Array<GitHubIssue>")
    }

    @Test(
        "the reported path is the error's, the position when the error's is shorter, or both joined",
        arguments: [
            ([0, "title"], [0], [0, "title"]),
            ([4], [4, "created_at"], [4, "created_at"]),
            (["a", "b", "c"], [1, "payload"], [1, "payload", "a", "b", "c"]),
            ([], [], []),
        ] as [([PathElement], [PathElement], [PathElement])])
    func resolve(error: [PathElement], position: [PathElement], expected: [PathElement]) {
        #expect(CodingPath.resolve(error: error, position: position) == expected)
    }

    @Test("array positions become integers and digit-only dictionary keys stay keys")
    func dictionaryKeys() throws {
        struct Box: Decodable { let labels: [String: Safe<Label>] }
        let reporter = TestReporter.make()
        let data = Data(#"{"labels":{"208045946":{"id":1,"name":"bug"}}}"#.utf8)
        _ = try JSONDecoder().decode(Box.self, from: data, endpoint: "GET /labels", reporter: reporter)
        #expect(reporter.pendingReports().first?.path == ["labels", "208045946", "color"])
    }

    @Test("JSON text of a snippet escapes strings and sorts keys")
    func jsonText() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"b":[1,2.5,true,null],"a":"q\"\n"}"#.utf8))
        #expect(value.jsonText(limit: 100) == #"{"a":"q\"\n","b":[1,2.5,true,null]}"#)
        #expect(value.jsonText(limit: 5) == #"{"a":"#)
    }
}

import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatch

@Suite struct EitherTests {
    @Test("Either decodes whichever alternative the value holds")
    func decodesEither() throws {
        let values = try JSONDecoder().decode(
            [Either<Int, String>].self, from: Data(#"[1000,"MDA6RW50aXR5MQ=="]"#.utf8))
        #expect(values == [.left(1000), .right("MDA6RW50aXR5MQ==")])
        #expect(values[0].left == 1000 && values[1].right == "MDA6RW50aXR5MQ==")
    }

    @Test("Either nests for three alternatives and encodes what it holds")
    func nests() throws {
        typealias Value = Either<Int, Either<Bool, String>>
        let data = Data(#"[42,true,"open"]"#.utf8)
        let values = try JSONDecoder().decode([Value].self, from: data)
        #expect(values == [.left(42), .right(.left(true)), .right(.right("open"))])
        #expect(try JSONEncoder().encode(values) == data)
    }

    @Test("Either decodes a real label or issue payload into the matching model")
    func models() throws {
        let labels = try JSONDecoder().decode([Either<GitHubIssue, Label>].self, from: Fixture.data("labels.json"))
        #expect(labels.count == 9)
        #expect(labels.allSatisfy { $0.right != nil })
    }

    @Test("when neither alternative matches, Either throws a typeMismatch that an enclosing Safe reports")
    func neither() throws {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Either<Int, Bool>.self, from: Data(#""x""#.utf8))
        }
        let reporter = TestReporter.make()
        let values = try JSONDecoder().decode(
            [Safe<Either<Int, Bool>>].self, from: Data(#"[1,"x"]"#.utf8), endpoint: "GET /v1/values", reporter: reporter
        )
        #expect(values[0].value == .left(1) && values[1].value == nil)
        let report = try #require(reporter.pendingReports().first)
        #expect(report.path == [1])
        #expect(report.kind == .typeMismatch)
        #expect(report.expected == "Either<Int, Bool>")
    }

    @Test("failures inside the alternative that did not match are not reported")
    func noSpuriousReports() throws {
        struct IssueLike: Decodable {
            @Safe var title: String?  // decoded first: a label has no title
            let number: Int
        }
        let reporter = TestReporter.make()
        let values = try JSONDecoder().decode(
            [Either<IssueLike, Label>].self, from: Fixture.data("labels.json"), endpoint: "GET /v1/x",
            reporter: reporter)
        #expect(values.allSatisfy { $0.right != nil })
        #expect(reporter.pendingReports().isEmpty)
    }

    @Test("failures inside the alternative that matched are reported")
    func reportsMatchedAlternative() throws {
        struct IssueLike: Decodable {
            @Safe var title: String?
            let number: Int
        }
        let reporter = TestReporter.make()
        let data = try Fixture.edited("issues.json", [([0, "title"], nil)])
        let values = try JSONDecoder().decode(
            [Either<IssueLike, Label>].self, from: data, endpoint: "GET /v1/x", reporter: reporter)
        #expect(values.allSatisfy { $0.left != nil })
        #expect(reporter.pendingReports().map(\.path) == [[0, "title"]])
    }
}

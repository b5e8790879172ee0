import Foundation
import Testing

@testable import DecodeWatch

/// Each way a field breaks, at the root, nested, and inside each wrapper: the reported kind is the one
/// Foundation's `DecodingError` names (docs/wire-format.md#report-kinds), never `other`.
@Suite struct DecodingErrorTableTests {
    struct Item: Decodable {
        let n: Int
    }

    struct InSafeList: Decodable { let items: [Safe<Item>] }
    struct InMaybeList: Decodable { let items: [Maybe<Item>] }
    struct InSafeArray: Decodable { @SafeArray var items: [Item] }
    struct SafeField: Decodable { @Safe var n: Int? }
    struct Nested: Decodable { let outer: InSafeList }

    /// How the field `n` breaks: the JSON of the object holding it, and the kind to report.
    static let breakages: [(name: String, object: String, kind: ReportKind)] = [
        ("a string for an Int", #"{"n": "seven"}"#, .typeMismatch),
        ("null for an Int", #"{"n": null}"#, .valueNotFound),
        ("the key missing", #"{}"#, .keyNotFound),
        ("a number that does not fit", #"{"n": 42.5}"#, .dataCorrupted),
    ]

    /// Where the object sits, and how to decode it.
    enum Placement: String, CaseIterable, CustomTestStringConvertible {
        case root, safeList, maybeList, safeArray, safeField, nested

        var testDescription: String { rawValue }

        func decode(_ object: String, reporter: Reporter) {
            let decoder = JSONDecoder()
            let list = #"{"items": [{"n": 1}, \#(object)]}"#
            func run<T: Decodable>(_ type: T.Type, _ json: String) {
                _ = try? decoder.decode(type, from: Data(json.utf8), endpoint: "GET /v2/items", reporter: reporter)
            }
            switch self {
            case .root: run(Item.self, object)
            case .safeList: run(InSafeList.self, list)
            case .maybeList: run(InMaybeList.self, list)
            case .safeArray: run(InSafeArray.self, list)
            case .safeField: run(SafeField.self, object)
            case .nested: run(Nested.self, #"{"outer": \#(list)}"#)
            }
        }

        /// The path to `n` (some errors carry only the wrapper's position, a prefix of it).
        var path: [PathElement] {
            switch self {
            case .root, .safeField: return ["n"]
            case .safeList, .maybeList, .safeArray: return ["items", 1, "n"]
            case .nested: return ["outer", "items", 1, "n"]
            }
        }
    }

    @Test(
        "every breakage is reported with Foundation's kind, at the field or its wrapper's position",
        arguments: Placement.allCases, breakages.indices)
    func kinds(placement: Placement, breakage: Int) throws {
        let (name, object, kind) = Self.breakages[breakage]
        let reporter = TestReporter.make()
        placement.decode(object, reporter: reporter)
        let reports = reporter.pendingReports()
        #expect(reports.count == 1, "\(name) in \(placement): \(reports)")
        let report = try #require(reports.first)
        #expect(report.kind == kind, "\(name) in \(placement)")
        if placement == .root && kind == .dataCorrupted {
            // Foundation says "not valid JSON" for the whole payload, with no path.
            #expect(report.path.isEmpty || report.path == placement.path)
        } else {
            #expect(placement.path.starts(with: report.path) && !report.path.isEmpty, "\(name) in \(placement)")
        }
    }
}

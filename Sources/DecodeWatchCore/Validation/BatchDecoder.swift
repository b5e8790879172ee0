@_spi(WireInternals) import DecodeWatchWire
import Foundation

/// Reads an ingest body (docs/wire-format.md#batch) into an ``IncomingBatch`` in one pass over its bytes, checking
/// RFC 8259 on the way with ``StrictJSON``'s scanner, so a body gets exactly the syntax errors that check gives.
///
/// Members may come in any order and unknown ones are skipped (still checked). When a key repeats, the first
/// value counts, as with Foundation's `JSONDecoder`. Problems are judged after an object ends, in the order of the
/// fields in docs/wire-format.md#reports, so a report with two problems always names the same one. Only the first
/// syntax error stops the pass; a batch-level problem is thrown once the whole text is known to be JSON, so that a body
/// with both always gets the syntax error.
struct BatchDecoder {
    private var scanner: StrictJSONScanner
    private let maxReports: Int
    private var strings = RecentValues<String>.strings()
    /// Paths read lately: a batch repeats the same few, and each read makes an array.
    private var paths = RecentValues<[PathElement]>(lengths: 0...256)
    private var shapes = RecentShapes()
    /// The shape number of each report read so far (``RecentShapes``), `-1` for one that has none.
    private var reportShapes: [Int] = []
    /// Where each report's snippet is, as read so far.
    private var reportSnippets: [StringSpan?] = []

    /// Reads `bytes` as a batch.
    /// - Parameters:
    ///   - bytes: the inflated body.
    ///   - maxReports: the most reports read; beyond it the rest are only checked and counted, then refused.
    /// - Throws: ``BatchError`` when the body is not JSON, not a batch, or has too many reports.
    static func decode(_ bytes: UnsafeRawBufferPointer, maxReports: Int) throws(BatchError) -> IncomingBatch {
        let outcome: Result<IncomingBatch, BatchError>
        do {
            outcome = try StrictJSON.withScanner(over: bytes, maxDepth: StrictJSON.defaultMaxDepth) {
                scanner throws(JSONSyntaxError) in
                var decoder = BatchDecoder(scanner: scanner, maxReports: maxReports)
                return try decoder.readText()
            }
        } catch {
            throw BatchError(.invalidJSON, "The body is not valid JSON \(error).")
        }
        return try outcome.get()
    }

    // MARK: Batch

    /// Reads the whole text; the outer result holds a batch-level refusal found once the text is known to be JSON.
    private mutating func readText() throws(JSONSyntaxError) -> Result<IncomingBatch, BatchError> {
        try scanner.checkByteOrderMark()
        scanner.skipWhitespace()
        if scanner.index == scanner.end {
            throw scanner.fail(scanner.index, "the body is only whitespace; expected a JSON text")
        }
        let outcome: Result<IncomingBatch, BatchError>
        if scanner.valueKind == .object {
            outcome = try readBatch()
        } else {
            try scanner.scanValue()
            outcome = .failure(
                BatchError(.invalidJSON, "The body must be a JSON object (a batch), not another JSON value."))
        }
        scanner.skipWhitespace()
        if scanner.index != scanner.end {
            throw scanner.fail(
                scanner.index, scanner.specialByteReason(at: scanner.index) ?? "unexpected text after the JSON value")
        }
        return outcome
    }

    private mutating func readBatch() throws(JSONSyntaxError) -> Result<IncomingBatch, BatchError> {
        var batchID = Field<String>.absent
        var sentAt = Field<String>.absent
        var app = Field<AppFields>.absent
        var sdk = Field<SDKFields>.absent
        var installID = Field<String>.absent
        var environment = Field<String>.absent
        var decodes = Field<[Result<DecodeCount, FieldProblem>]>.absent
        var reports = Field<[Result<Report, FieldProblem>]>.absent
        var reportCount = 0
        if try scanner.enterContainer() {
            repeat {
                if scanner.lastKeyIs("batch_id"), batchID.isAbsent {
                    batchID = try readString()
                } else if scanner.lastKeyIs("sent_at"), sentAt.isAbsent {
                    sentAt = try readString()
                } else if scanner.lastKeyIs("app"), app.isAbsent {
                    app = try readObject(expected: "expected an object") { reader throws(JSONSyntaxError) in
                        try reader.readApp()
                    }
                } else if scanner.lastKeyIs("sdk"), sdk.isAbsent {
                    sdk = try readObject(expected: "expected an object") { reader throws(JSONSyntaxError) in
                        try reader.readSDK()
                    }
                } else if scanner.lastKeyIs("install_id"), installID.isAbsent {
                    installID = try readString()
                } else if scanner.lastKeyIs("environment"), environment.isAbsent {
                    environment = try readString()
                } else if scanner.lastKeyIs("decodes"), decodes.isAbsent {
                    decodes = try readArray { reader, index throws(JSONSyntaxError) in try reader.readDecodeCount(index)
                    }
                } else if scanner.lastKeyIs("reports"), reports.isAbsent {
                    reports = try readArray { reader, index throws(JSONSyntaxError) in
                        reportCount = index + 1
                        guard index < reader.maxReports else {
                            try reader.scanner.scanValue()
                            return nil
                        }
                        let report = try reader.readReport(index)
                        reader.reportShapes.append(report.shape)
                        reader.reportSnippets.append(report.snippet)
                        return report.report
                    }
                } else {
                    try scanner.scanValue()
                }
            } while try scanner.continueContainer()
        }
        return Result { () throws(BatchError) in
            var batch = IncomingBatch(
                batchID: try batchID.required("batch_id").refusing(),
                app: AppInfo(id: try app.required("app").refusing().id.required("app.id").refusing()))
            let list = try reports.required("reports").refusing()
            if reportCount > maxReports {
                throw BatchError(
                    .tooManyReports,
                    "The batch has \(reportCount) reports; send at most \(maxReports) per batch and split the rest.")
            }
            batch.reports = list
            batch.shapes = reportShapes
            batch.shapeCount = shapes.count
            batch.snippets = reportSnippets
            batch.fillHeader(
                sentAt: sentAt, app: app, sdk: sdk, installID: installID, environment: environment, decodes: decodes)
            return batch
        }
    }

    /// The members of `app` as read.
    struct AppFields {
        var id = Field<String>.absent
        var version = Field<String>.absent
        var build = Field<String>.absent
        var platform = Field<String>.absent
        var os = Field<String>.absent
    }

    private mutating func readApp() throws(JSONSyntaxError) -> AppFields {
        try readStrings(
            into: AppFields(),
            [("id", \.id), ("version", \.version), ("build", \.build), ("platform", \.platform), ("os", \.os)])
    }

    /// The members of `sdk` as read.
    struct SDKFields {
        var name = Field<String>.absent
        var version = Field<String>.absent
    }

    private mutating func readSDK() throws(JSONSyntaxError) -> SDKFields {
        try readStrings(into: SDKFields(), [("name", \.name), ("version", \.version)])
    }

    /// Reads an object of string members into `fields`, each named member into its field; the first of two
    /// members with the same name wins, and other members are skipped.
    private mutating func readStrings<Fields>(
        into fields: Fields, _ members: [(name: StaticString, field: WritableKeyPath<Fields, Field<String>>)]
    ) throws(JSONSyntaxError) -> Fields {
        var fields = fields
        try readMembers { reader throws(JSONSyntaxError) in
            for member in members where reader.scanner.lastKeyIs(member.name) && fields[keyPath: member.field].isAbsent
            {
                fields[keyPath: member.field] = try reader.readString()
                return
            }
            try reader.scanner.scanValue()
        }
        return fields
    }

    // MARK: Elements

    private mutating func readDecodeCount(_ index: Int) throws(JSONSyntaxError) -> Result<DecodeCount, FieldProblem>? {
        var endpoint = Field<String>.absent
        var count = Field<Int>.absent
        let entry = try readObject(expected: "expected an object") { reader throws(JSONSyntaxError) in
            try reader.readMembers { reader throws(JSONSyntaxError) in
                if reader.scanner.lastKeyIs("endpoint"), endpoint.isAbsent {
                    endpoint = try reader.readString()
                } else if reader.scanner.lastKeyIs("count"), count.isAbsent {
                    count = try reader.readInt()
                } else {
                    try reader.scanner.scanValue()
                }
            }
        }
        return Result { () throws(FieldProblem) in
            try entry.required("decodes[\(index)]").get()
            return DecodeCount(
                endpoint: try endpoint.required("decodes[\(index)].endpoint").get(),
                count: try count.required("decodes[\(index)].count").get())
        }
    }

    /// Reads one report, with the number of its shape (``RecentShapes``), `-1` when it has no endpoint, path or
    /// kind to make one of, and where its snippet is: the report's own `snippet` is left empty.
    private mutating func readReport(
        _ index: Int
    ) throws(JSONSyntaxError) -> (report: Result<Report, FieldProblem>, shape: Int, snippet: StringSpan?) {
        var occurredAt = Field<Date>.absent
        var endpoint = Field<String>.absent
        var endpointText = 0..<0
        var type = Field<String>.absent
        var path = Field<[PathElement]>.absent
        var pathText = 0..<0
        var kind = Field<ReportKind>.absent
        var expected = Field<String>.absent
        var message = Field<String>.absent
        var snippet = Field<StringSpan>.absent
        var count = Field<Int>.absent
        var keyDecoding = Field<KeyDecoding>.absent
        let report = try readObject(expected: "expected an object") { reader throws(JSONSyntaxError) in
            try reader.readMembers { reader throws(JSONSyntaxError) in
                if reader.scanner.lastKeyIs("occurred_at"), occurredAt.isAbsent {
                    occurredAt = try reader.readTime()
                } else if reader.scanner.lastKeyIs("endpoint"), endpoint.isAbsent {
                    let start = reader.scanner.index
                    endpoint = try reader.readString()
                    endpointText = start..<reader.scanner.index
                } else if reader.scanner.lastKeyIs("type"), type.isAbsent {
                    type = try reader.readString()
                } else if reader.scanner.lastKeyIs("path"), path.isAbsent {
                    let start = reader.scanner.index
                    path = try reader.readPath()
                    pathText = start..<reader.scanner.index
                } else if reader.scanner.lastKeyIs("kind"), kind.isAbsent {
                    kind = try reader.readName(Self.kinds) { "unknown kind '\($0)'" }
                } else if reader.scanner.lastKeyIs("expected"), expected.isAbsent {
                    expected = try reader.readString()
                } else if reader.scanner.lastKeyIs("message"), message.isAbsent {
                    message = try reader.readString()
                } else if reader.scanner.lastKeyIs("snippet"), snippet.isAbsent {
                    snippet = try reader.readStringContents { scanner, contents, escaped in
                        scanner.lastStringHoldsNUL
                            ? .wrong(at: "", Self.nulProblem) : .value(StringSpan(range: contents, escaped: escaped))
                    }
                } else if reader.scanner.lastKeyIs("count"), count.isAbsent {
                    count = try reader.readInt()
                } else if reader.scanner.lastKeyIs("key_decoding"), keyDecoding.isAbsent {
                    keyDecoding = try reader.readName(Self.keyDecodings, unknown: Report.unknownKeyDecoding)
                } else {
                    try reader.scanner.scanValue()
                }
            }
        }
        var shape = -1
        if case .value(let read) = endpoint, case .value(let elements) = path, case .value(let sentKind) = kind {
            let known = shapes.shape(
                endpointText: UnsafeRawBufferPointer(rebasing: scanner.bytes[endpointText]), endpoint: read,
                pathText: UnsafeRawBufferPointer(rebasing: scanner.bytes[pathText]), path: elements, kind: sentKind)
            shape = known.number
            endpoint = .value(known.endpoint)
            path = .value(known.path)
        }
        func at(_ member: String) -> String { member.isEmpty ? "reports[\(index)]" : "reports[\(index)].\(member)" }
        var span: StringSpan?
        let read = Result { () throws(FieldProblem) in
            try report.required(at("")).get()
            let date = try occurredAt.required(at("occurred_at")).get()
            let endpoint = try endpoint.required(at("endpoint")).get()
            let type = try type.optional(at("type")).get()
            let path = try path.required(at("path")).get()
            let kind = try kind.required(at("kind")).get()
            let expected = try expected.optional(at("expected")).get()
            let message = try message.optional(at("message")).get()
            let snippet = try snippet.optional(at("snippet")).get()
            let count = try count.optional(at("count")).get() ?? 1
            let keyDecoding = try keyDecoding.optional(at("key_decoding")).get()
            span = snippet
            return Report(
                occurredAt: date, endpoint: endpoint, type: type, path: path, kind: kind, expected: expected,
                message: message, count: count, keyDecoding: keyDecoding)
        }
        return (read, shape, span)
    }

    /// Reads `path`: each element an object key (a string) or an array index (a whole number from 0). A path
    /// written as one read lately is checked and shares that one's elements (``RecentValues``).
    private mutating func readPath() throws(JSONSyntaxError) -> Field<[PathElement]> {
        guard scanner.valueKind == .array else { return try readPathElements() }
        let start = scanner.index
        try scanner.scanValue()
        let text = UnsafeRawBufferPointer(rebasing: scanner.bytes[start..<scanner.index])
        if let known = paths.value(readFrom: text) { return .value(known) }
        // Read again, now element by element: the scan left the scanner as it was but for where it is.
        scanner.index = start
        let path = try readPathElements()
        if case .value(let elements) = path { paths.remember(elements, readFrom: text) }
        return path
    }

    private mutating func readPathElements() throws(JSONSyntaxError) -> Field<[PathElement]> {
        var problem: (at: String, text: String)?
        let elements = try readArray { reader, index throws(JSONSyntaxError) -> PathElement? in
            let element: PathElement?
            switch reader.scanner.valueKind {
            case .string:
                guard let key = try reader.readSharedString() else {
                    if problem == nil { problem = ("[\(index)]", Self.nulProblem) }
                    return nil
                }
                element = .key(key)
            case .number:
                element = try reader.scanner.readInt().map { number in
                    if number < 0, problem == nil {
                        problem = ("[\(index)]", "an array index must not be negative, got \(number)")
                    }
                    return .index(number)
                }
            default:
                try reader.scanner.scanValue()
                element = nil
            }
            if element == nil, problem == nil {
                problem = ("[\(index)]", "expected an object key (string) or an array index (non-negative integer)")
            }
            return element
        }
        if let problem, case .value = elements { return .wrong(at: problem.at, problem.text) }
        return elements
    }

    // MARK: Values

    private mutating func readString() throws(JSONSyntaxError) -> Field<String> {
        switch scanner.valueKind {
        case .string: return try readSharedString().map(Field.value) ?? .wrong(at: "", Self.nulProblem)
        case .null: return try skip(.null)
        default: return try skip(.wrong(at: "", "expected a string"))
        }
    }

    /// Why a string holding U+0000 is refused: PostgreSQL cannot store it in text, and C strings (SQLite's, many
    /// tools') end there, so it would be stored cut short on one store and not at all on the other.
    static let nulProblem =
        #"holds U+0000 (written \u0000), which cannot be stored; leave it out or replace it, e.g. with U+FFFD"#

    /// Reads the string under the cursor: text that the batch had lately is shared (``RecentValues``).
    /// - Returns: the string, or `nil` when it holds U+0000 (``nulProblem``); only an escape can write one.
    private mutating func readSharedString() throws(JSONSyntaxError) -> String? {
        let start = scanner.index &+ 1
        let escaped = try scanner.scanString()
        let stop = scanner.index &- 1
        let scanner = self.scanner
        let raw = UnsafeRawBufferPointer(rebasing: scanner.bytes[start..<stop])
        if scanner.lastStringHoldsNUL { return nil }
        return strings.string(raw) {
            scanner.text(from: start, to: stop, escaped: escaped)
        }
    }

    /// Reads a string that must be one of `names`, matched in the body's bytes: a known name makes no string.
    private mutating func readName<Name>(
        _ names: [(value: Name, bytes: [UInt8])], unknown: (String) -> String
    ) throws(JSONSyntaxError) -> Field<Name> {
        try readStringContents { scanner, contents, escaped in
            let text = { scanner.text(from: contents.lowerBound, to: contents.upperBound, escaped: escaped) }
            let known = names.first { name in
                escaped
                    ? name.bytes.elementsEqual(text().utf8)
                    : name.bytes.count == contents.count
                        && memcmp(scanner.base + contents.lowerBound, name.bytes, contents.count) == 0
            }
            return known.map { .value($0.value) } ?? .wrong(at: "", unknown(text()))
        }
    }

    /// Each kind with the bytes of its name.
    private static let kinds = ReportKind.allCases.map { (value: $0, bytes: Array($0.rawValue.utf8)) }

    /// Each key decoding strategy with the bytes of its name.
    private static let keyDecodings = KeyDecoding.allCases.map { (value: $0, bytes: Array($0.rawValue.utf8)) }

    /// Reads an RFC 3339 time, parsed from the body's bytes unless it holds an escape.
    private mutating func readTime() throws(JSONSyntaxError) -> Field<Date> {
        try readStringContents { scanner, contents, escaped in
            let date =
                escaped
                ? RFC3339.date(from: scanner.text(from: contents.lowerBound, to: contents.upperBound, escaped: true))
                : RFC3339.date(utf8: UnsafeRawBufferPointer(rebasing: scanner.bytes[contents]))
            if let date { return .value(date) }
            let text = scanner.text(from: contents.lowerBound, to: contents.upperBound, escaped: escaped)
            return .wrong(at: "", "not an RFC 3339 time: \(text)")
        }
    }

    /// Reads a string from the body's bytes without making it a string first: `read` gets the range of its
    /// contents (quotes excluded) and whether they hold an escape. `null` and other types are noted as for any
    /// string field.
    private mutating func readStringContents<Value>(
        _ read: (StrictJSONScanner, Range<Int>, Bool) -> Field<Value>
    ) throws(JSONSyntaxError) -> Field<Value> {
        switch scanner.valueKind {
        case .string:
            let start = scanner.index &+ 1
            let escaped = try scanner.scanString()
            return read(scanner, start..<scanner.index &- 1, escaped)
        case .null: return try skip(.null)
        default: return try skip(.wrong(at: "", "expected a string"))
        }
    }

    private mutating func readInt() throws(JSONSyntaxError) -> Field<Int> {
        switch scanner.valueKind {
        case .number:
            let start = scanner.index
            if let number = try scanner.readInt() { return .value(number) }
            let written = scanner.text(from: start, to: scanner.index, escaped: false)
            return .wrong(at: "", "expected a whole number that fits in 64 bits, got \(written.prefix(40))")
        case .null: return try skip(.null)
        default: return try skip(.wrong(at: "", "expected an integer"))
        }
    }

    /// Reads an object with `body`, or notes that the value is `null` or of another type.
    private mutating func readObject<Value>(
        expected: String, _ body: (inout Self) throws(JSONSyntaxError) -> Value
    ) throws(JSONSyntaxError) -> Field<Value> {
        switch scanner.valueKind {
        case .object: return .value(try body(&self))
        case .null: return try skip(.null)
        default: return try skip(.wrong(at: "", expected))
        }
    }

    /// Calls `member` with the cursor on each member's value; the cursor is on the object's `{`.
    private mutating func readMembers(_ member: (inout Self) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        guard try scanner.enterContainer() else { return }
        repeat { try member(&self) } while try scanner.continueContainer()
    }

    /// Reads an array with `element` (which returns `nil` for an element it does not keep), or notes that the
    /// value is `null` or of another type.
    private mutating func readArray<Element>(
        _ element: (inout Self, Int) throws(JSONSyntaxError) -> Element?
    ) throws(JSONSyntaxError) -> Field<[Element]> {
        switch scanner.valueKind {
        case .array: break
        case .null: return try skip(.null)
        default: return try skip(.wrong(at: "", "expected an array"))
        }
        var elements: [Element] = []
        guard try scanner.enterContainer() else { return .value(elements) }
        // One allocation for a short array such as a path, where growing from empty took three.
        elements.reserveCapacity(8)
        var index = 0
        repeat {
            if let next = try element(&self, index) { elements.append(next) }
            index += 1
        } while try scanner.continueContainer()
        return .value(elements)
    }

    /// Skips the value under the cursor, checking it, and returns `field`.
    private mutating func skip<Value>(_ field: Field<Value>) throws(JSONSyntaxError) -> Field<Value> {
        try scanner.scanValue()
        return field
    }
}

/// What one member of an object held, as far as its reader cares.
enum Field<Value> {
    case absent
    case null
    case value(Value)
    /// A value of the wrong type or form: where below the field (`""` or `[2]`) and what was expected.
    case wrong(at: String, String)

    var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }

    /// The value of a required field (docs/wire-format.md#batch).
    /// - Parameter name: the field's name, e.g. `reports[3].count`; only spelled out for a problem.
    func required(_ name: @autoclosure () -> String) -> Result<Value, FieldProblem> {
        switch self {
        case .value(let value): .success(value)
        case .absent: .failure(FieldProblem("\(name()): required field is missing"))
        case .null: .failure(FieldProblem("\(name()): must not be null"))
        case .wrong(let at, let text): .failure(FieldProblem("\(name())\(at): \(text)"))
        }
    }

    /// The value of an optional field: absent and `null` both mean none.
    /// - Parameter name: the field's name, e.g. `reports[3].type`; only spelled out for a problem.
    func optional(_ name: @autoclosure () -> String) -> Result<Value?, FieldProblem> {
        switch self {
        case .value(let value): .success(value)
        case .absent, .null: .success(nil)
        case .wrong(let at, let text): .failure(FieldProblem("\(name())\(at): \(text)"))
        }
    }
}

extension Result where Failure == FieldProblem {
    /// The value, or the problem as a batch-level refusal (for `batch_id`, `app` and `reports`).
    func refusing() throws(BatchError) -> Success {
        switch self {
        case .success(let value): value
        case .failure(let problem): throw BatchError(.invalidBatch, problem.text)
        }
    }
}

extension IncomingBatch {
    /// Fills the optional header fields; a value of the wrong type is dropped with a warning.
    fileprivate mutating func fillHeader(
        sentAt: Field<String>, app: Field<BatchDecoder.AppFields>, sdk: Field<BatchDecoder.SDKFields>,
        installID: Field<String>, environment: Field<String>, decodes: Field<[Result<DecodeCount, FieldProblem>]>
    ) {
        func optional(_ field: Field<String>, _ name: String) -> String? {
            if case .wrong(let at, let problem) = field { warnings.append("\(name)\(at): \(problem); dropped") }
            return (try? field.optional(name).get()) ?? nil
        }
        if let sent = optional(sentAt, "sent_at") {
            if let date = RFC3339.date(from: sent) {
                self.sentAt = date
            } else {
                warnings.append("sent_at: '\(sent.prefix(40))' is not an RFC 3339 time; dropped")
            }
        }
        if case .value(let fields) = app {
            self.app.version = optional(fields.version, "app.version")
            self.app.build = optional(fields.build, "app.build")
            self.app.platform = optional(fields.platform, "app.platform")
            self.app.os = optional(fields.os, "app.os")
        }
        switch sdk {
        case .value(let fields):
            self.sdk = SDKInfo(
                name: optional(fields.name, "sdk.name"), version: optional(fields.version, "sdk.version"))
        case .wrong: warnings.append("sdk: expected an object; dropped")
        case .absent, .null: break
        }
        self.installID = optional(installID, "install_id")
        self.environment = optional(environment, "environment")
        switch decodes {
        case .value(let entries): self.decodes = entries
        case .wrong: warnings.append("decodes: expected an array of {endpoint, count}; dropped")
        case .absent, .null: break
        }
    }
}

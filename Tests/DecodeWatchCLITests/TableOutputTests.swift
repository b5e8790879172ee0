import DecodeWatch
import DecodeWatchWire
import Foundation
import Testing

@testable import DecodeWatchCLI

@Suite("Tables and --version")
struct TableOutputTests {
    @Test("--version prints the product's one version constant")
    func version() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output == SDKInfo.decodeWatchVersion + "\n")
    }

    @Test("columns are padded by display width, so wide characters keep the next columns in line")
    func displayWidth() {
        #expect(TextTable.displayWidth("shop") == 4)
        #expect(TextTable.displayWidth("商店") == 4)
        #expect(TextTable.displayWidth("café") == 4)
        let lines = TextTable.lines([["APP", "COUNT"], ["商店", "3"], ["com.example", "12"]], rightAligned: [1])
        #expect(lines == ["APP          COUNT", "商店             3", "com.example     12"])
    }

    @Test("keys list and tokens list show the name given at creation, under a header that lines up")
    func credentialNames() throws {
        try CLI.withDatabase(on: .sqlite) { _, db in
            #expect(
                try CLI.run(
                    ["keys", "create", "--create", "--app", "com.example.shop", "--name", "ios-production"] + db
                )
                .status == 0)
            #expect(try CLI.run(["keys", "create", "--create", "--app", "com.example.octo"] + db).status == 0)
            #expect(try CLI.run(["tokens", "create", "--create", "--name", "grafana"] + db).status == 0)

            let keys = try CLI.run(["keys", "list"] + db).output.split(separator: "\n").map(String.init)
            try Self.expectLinedUp(keys, header: ["ID", "APP", "NAME", "CREATED", "BY", "LAST USED", "STATUS"])
            let named = try #require(keys.first { $0.contains("com.example.shop") })
            let unnamed = try #require(keys.first { $0.contains("com.example.octo") })
            #expect(Self.cell(named, under: "NAME", in: keys[0]) == "ios-production")
            #expect(Self.cell(unnamed, under: "NAME", in: keys[0]) == "-")
            let tokens = try CLI.run(["tokens", "list"] + db).output.split(separator: "\n").map(String.init)
            try Self.expectLinedUp(tokens, header: ["ID", "NAME", "SCOPE", "CREATED", "BY", "LAST USED", "STATUS"])
            #expect(Self.cell(tokens[1], under: "NAME", in: tokens[0]) == "grafana")
            #expect(Self.cell(tokens[1], under: "BY", in: tokens[0])?.hasPrefix("local:") == true)
        }
    }

    @Test("contracts list's header lines up with its rows")
    func contractsHeader() throws {
        try CLI.withDatabase(on: .sqlite) { _, db in
            let spec = ContractCommandTests.spec.path
            #expect(
                try CLI.run(
                    ["contracts", "import", spec, "--create", "--app", "com.example.octo", "--name", "github"] + db
                ).status == 0
            )
            let lines = try CLI.run(["contracts", "list"] + db).output.split(separator: "\n").map(String.init)
            try Self.expectLinedUp(
                Array(lines.dropLast()),
                header: ["APP", "NAME", "VERSION (IMPORTED)", "OPENAPI", "OPERATIONS", "TITLE"],
                rightAligned: ["OPERATIONS"])
            #expect(Self.cell(lines[1], under: "NAME", in: lines[0]) == "github")
        }
    }

    /// Checks that the first line is the header and that every row has a cell starting where each column's
    /// title starts (or, right-aligned, ending where it ends), after the two spaces between columns.
    static func expectLinedUp(
        _ lines: [String], header: [String], rightAligned: Set<String> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try #require(lines.count >= 2, "\(lines)", sourceLocation: sourceLocation)
        let titles = lines[0].components(separatedBy: "  ").filter { !$0.isEmpty }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(titles == header, sourceLocation: sourceLocation)
        for row in lines.dropFirst() {
            for title in header {
                let start = try #require(lines[0].range(of: title)).lowerBound.utf16Offset(in: lines[0])
                let end = start + title.utf16.count
                let characters = Array(row.utf16)
                if rightAligned.contains(title) {
                    #expect(
                        end <= characters.count && characters[end - 1] != 32, "\(row)", sourceLocation: sourceLocation)
                } else {
                    #expect(
                        characters.count > start && characters[start] != 32, "\(row)", sourceLocation: sourceLocation)
                    #expect(
                        start < 2 || characters[start - 1] == 32 && characters[start - 2] == 32, "\(row)",
                        sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// The cell of a row that starts under a column title.
    static func cell(_ row: String, under title: String, in header: String) -> String? {
        guard let range = header.range(of: title) else { return nil }
        let start = header.distance(from: header.startIndex, to: range.lowerBound)
        guard start < row.count else { return nil }
        return row.dropFirst(start).components(separatedBy: "  ").first
    }
}

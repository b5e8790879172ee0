import Foundation

/// Makes batch bodies for the differential tests: mostly well-formed batches written in every way JSON allows
/// (member order, whitespace, escapes, number forms, repeated and unknown keys), with wrong types, nulls and
/// missing fields mixed in, and byte-level mutations of them.
struct BatchTextGenerator {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// A JSON value as the generator builds it; members keep their order, repeats included.
    indirect enum Value {
        case object([(String, Value)])
        case array([Value])
        case string(String)
        /// A number as written, e.g. `1e3`.
        case number(String)
        case literal(String)
    }

    // MARK: Batches

    /// A batch, usually valid, sometimes with a batch-level problem.
    mutating func batch() -> Value {
        var members: [(String, Value)] = []
        members.append(("batch_id", chance(0.97) ? .string("b-\(int(1000))") : oddValue()))
        if chance(0.5) { members.append(("sent_at", chance(0.8) ? .string(time()) : oddValue())) }
        members.append(("app", chance(0.97) ? app() : oddValue()))
        if chance(0.3) { members.append(("sdk", chance(0.8) ? sdk() : oddValue())) }
        if chance(0.6) { members.append(("install_id", chance(0.9) ? .string("install-\(int(50))") : oddValue())) }
        if chance(0.5) {
            members.append(("decodes", chance(0.9) ? .array((0..<int(4)).map { _ in decodeCount() }) : oddValue()))
        }
        if chance(0.98) {
            members.append(("reports", chance(0.97) ? .array((0..<int(12)).map { _ in report() }) : oddValue()))
        }
        return .object(dressed(members))
    }

    private mutating func app() -> Value {
        var members: [(String, Value)] = [
            ("id", chance(0.95) ? .string(pick(["com.example.shop", "a", "é"])) : oddValue())
        ]
        for key in ["version", "build", "platform", "os"] where chance(0.5) {
            members.append((key, chance(0.9) ? .string(pick(["5.2.0", "1", "iOS", "17.4"])) : oddValue()))
        }
        return .object(dressed(members))
    }

    private mutating func sdk() -> Value {
        var members: [(String, Value)] = []
        for key in ["name", "version"] where chance(0.7) {
            members.append((key, chance(0.9) ? .string("decodewatch-swift") : oddValue()))
        }
        return .object(dressed(members))
    }

    private mutating func decodeCount() -> Value {
        if chance(0.05) { return oddValue() }
        var members: [(String, Value)] = []
        if chance(0.95) { members.append(("endpoint", chance(0.9) ? .string(endpoint()) : oddValue())) }
        if chance(0.95) { members.append(("count", chance(0.85) ? .number(number()) : oddValue())) }
        return .object(dressed(members))
    }

    private mutating func report() -> Value {
        if chance(0.03) { return oddValue() }
        var members: [(String, Value)] = []
        func add(_ key: String, _ required: Bool, _ value: Value, _ generator: inout BatchTextGenerator) {
            guard required ? generator.chance(0.97) : generator.chance(0.6) else { return }
            members.append((key, generator.chance(0.93) ? value : generator.oddValue()))
        }
        add("occurred_at", true, .string(chance(0.95) ? time() : "yesterday"), &self)
        add("endpoint", true, .string(endpoint()), &self)
        add("type", false, .string(pick(["Post", "User", "[Post]"])), &self)
        add("path", true, .array((0..<int(5)).map { _ in pathElement() }), &self)
        add(
            "kind", true,
            .string(pick(["typeMismatch", "keyNotFound", "valueNotFound", "dataCorrupted", "other", "oops"])), &self)
        add("expected", false, .string(pick(["String", "Int", "Date"])), &self)
        add("message", false, .string(text()), &self)
        add("snippet", false, .string(#"{"id":1,"title":null,"tags":["a","\n"]}"#), &self)
        add("count", false, .number(number()), &self)
        add(
            "key_decoding", false,
            .string(pick(["use_default_keys", "convert_from_snake_case", "custom", "snake_case", "Custom"])), &self)
        return .object(dressed(members))
    }

    private mutating func pathElement() -> Value {
        switch int(10) {
        case 0: return .number(pick(["-1", "1.5", "1e30", "-0", "2.0"]))
        case 1: return oddValue()
        case 2, 3, 4: return .number("\(int(20))")
        default: return .string(pick(["data", "items", "user", "created_at", "naïve", "\u{1F600}", ""]))
        }
    }

    // MARK: Pieces

    /// Adds unknown members and repeated keys, and shuffles the order.
    private mutating func dressed(_ members: [(String, Value)]) -> [(String, Value)] {
        var members = members
        if chance(0.15) { members.append(("extra", nested(depth: int(4)))) }
        if chance(0.08), let repeated = members.randomElement(using: &random) {
            members.append((repeated.0, chance(0.5) ? oddValue() : repeated.1))
        }
        if chance(0.5) { members.shuffle(using: &random) }
        return members
    }

    /// A value of a type no field wants, or `null`.
    private mutating func oddValue() -> Value {
        switch int(7) {
        case 0: return .literal("null")
        case 1: return .literal(pick(["true", "false"]))
        case 2: return .number(number())
        case 3: return .string(text())
        case 4: return .array([.string("x")])
        case 5: return .object([("k", .number("1"))])
        default: return .literal("null")
        }
    }

    private mutating func nested(depth: Int) -> Value {
        guard depth > 0 else { return .string(text()) }
        return chance(0.5)
            ? .array([nested(depth: depth - 1), .number("1")]) : .object([("n", nested(depth: depth - 1))])
    }

    private mutating func number() -> String {
        pick([
            "1", "2", "0", "-1", "1000000", "1000001", "1.0", "1e3", "1E2", "100e-2", "1.5", "1e30", "-0",
            "10000000000000000000", "9223372036854775807", "-9223372036854775808", "0.5e1", "123456789012345678",
        ])
    }

    private mutating func time() -> String {
        pick(["2026-11-21T09:59:58.123Z", "2026-11-21T09:00:00Z", "2026-11-21T10:30:00+01:00", "2030-01-01T00:00:00Z"])
    }

    private mutating func endpoint() -> String {
        pick([
            "GET /v2/posts/12", "GET /v2/posts?page=2", "post /v2/users/7/follow", "posts",
            "https://api.example.com/v2/x", "",
        ])
    }

    private mutating func text() -> String {
        pick(["plain", "with \"quotes\"", "tab\there", "line\nbreak", "snow ☃", "emoji \u{1F600}", "nul\u{0}byte", ""])
    }

    // MARK: Writing

    /// Writes `value` as JSON text, with random whitespace and randomly escaped string characters.
    mutating func write(_ value: Value) -> String {
        var text = ""
        write(value, into: &text)
        return space() + text + space()
    }

    private mutating func write(_ value: Value, into text: inout String) {
        switch value {
        case .object(let members):
            text += "{" + space()
            for (offset, member) in members.enumerated() {
                if offset > 0 { text += "," + space() }
                text += quoted(member.0) + space() + ":" + space()
                write(member.1, into: &text)
                text += space()
            }
            text += "}"
        case .array(let elements):
            text += "[" + space()
            for (offset, element) in elements.enumerated() {
                if offset > 0 { text += "," + space() }
                write(element, into: &text)
                text += space()
            }
            text += "]"
        case .string(let string): text += quoted(string)
        case .number(let number), .literal(let number): text += number
        }
    }

    private mutating func quoted(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += #"\""#
            case "\\": text += #"\\"#
            case "\n": text += #"\n"#
            case "\t": text += chance(0.5) ? #"\t"# : #"\u0009"#
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            case _ where scalar.value > 0xFFFF && chance(0.5):
                let offset = scalar.value - 0x10000
                text += String(format: "\\u%04X\\u%04X", 0xD800 + (offset >> 10), 0xDC00 + (offset & 0x3FF))
            case _ where chance(0.05): text += String(format: "\\u%04x", scalar.value & 0xFFFF)
            case "/" where chance(0.5): text += #"\/"#
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    private mutating func space() -> String { chance(0.8) ? "" : pick([" ", "\n", "\t", "\r\n  "]) }

    // MARK: Mutations

    /// `text` with one to three bytes deleted, inserted or replaced, or cut short.
    mutating func mutate(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        for _ in 0..<(1 + int(3)) where !bytes.isEmpty {
            let at = int(bytes.count)
            switch int(5) {
            case 0: bytes.remove(at: at)
            case 1: bytes.insert(pick(Array(#"{}[],:"\-0e.tn "#.utf8) + [0x00, 0x80, 0xC3, 0xFF]), at: at)
            case 2: bytes[at] = pick(Array(#"{}[],:"\ 1a"#.utf8))
            case 3: bytes.removeSubrange(at...)
            default:
                bytes.insert(contentsOf: Array(pick([#","#, #"\u12"#, "null", "\"", "1.", "-", "[[["]).utf8), at: at)
            }
        }
        return bytes
    }

    // MARK: Chance

    mutating func chance(_ probability: Double) -> Bool { Double(random.next() % 10_000) < probability * 10_000 }

    mutating func int(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    mutating func pick<Element>(_ choices: [Element]) -> Element { choices[int(choices.count)] }
}

/// A small seeded generator, so that a failing case can be made again from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

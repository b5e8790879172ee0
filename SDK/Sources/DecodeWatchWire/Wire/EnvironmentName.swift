/// Names of the environment an app runs in (docs/wire-format.md#environments): `production`, `staging`, `debug`,
/// `testflight`, … A batch names one; a batch without one counts as ``production``.
public enum EnvironmentName {
    /// Where a batch without an `environment` counts.
    public static let production = "production"
    /// What the SDK sends from a DEBUG build unless configured otherwise.
    public static let debug = "debug"
    /// The longest name, in characters.
    public static let maxLength = 64

    /// Whether `name` is 1–64 characters of `[A-Za-z0-9._-]`.
    public static func isValid(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.count <= maxLength
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    /// The sentence that says what a valid name is, for rejections.
    public static let rule = "1–\(maxLength) characters of A–Z, a–z, 0–9, '.', '_' and '-'"
}

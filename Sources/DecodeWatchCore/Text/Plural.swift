/// Counted nouns in English: `1 field`, `2 fields`, `0 fields`.
public enum Plural {
    /// The noun for a count: `singular` for exactly one, else `plural` (`singular` + "s" by default).
    public static func noun(_ singular: String, _ count: Int, plural: String? = nil) -> String {
        count == 1 ? singular : plural ?? singular + "s"
    }

    /// The count and its noun: `1 field`, `2 fields`.
    public static func count(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) \(noun(singular, count, plural: plural))"
    }
}

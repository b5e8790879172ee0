/// `value` in lower-case hex, zero-padded to `width` digits, as `%0*x` writes it.
func hex(_ value: UInt64, _ width: Int) -> String {
    padded(String(value, radix: 16), width)
}

/// `value` in decimal, zero-padded to `width` digits, as `%0*d` writes it.
func decimal(_ value: Int, _ width: Int) -> String {
    padded(String(value), width)
}

/// `digits` with zeros in front up to `width` characters.
private func padded(_ digits: String, _ width: Int) -> String {
    digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

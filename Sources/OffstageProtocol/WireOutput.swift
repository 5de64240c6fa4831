/// Writing the protocol's JSON straight into a frame's bytes: the pieces every `WireCoded` value is written with,
/// so that a number or a string is written one way wherever it is.
extension [UInt8] {
    /// Appends JSON text written in the source (keys, punctuation, whole fragments).
    /// The punctuation around keys and values (a byte or two) is appended byte by byte, which the compiler
    /// inlines; longer text is copied at once.
    @inline(__always)
    mutating func put(_ literal: StaticString) {
        let count = literal.utf8CodeUnitCount
        guard count > 2 else {
            for offset in 0..<count { append(literal.utf8Start[offset]) }
            return
        }
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: count))
    }

    /// Appends a whole number in decimal.
    mutating func put<Value: FixedWidthInteger>(_ value: Value) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        let start = count
        repeat {
            append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        self[start...].reverse()
    }

    mutating func put(_ value: Bool) { value ? put("true") : put("false") }

    /// Appends a number as Swift describes it; false (nothing written) for infinities and NaN, which JSON cannot
    /// hold (the caller then reports the error).
    mutating func put<Value: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Value) -> Bool {
        guard value.isFinite else { return false }
        append(contentsOf: value.description.utf8)
        return true
    }

    /// Appends a JSON string, escaped (`WireJSON.write(string:to:)`).
    mutating func put(string: String) { WireJSON.write(string: string, to: &self) }
}

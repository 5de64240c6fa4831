/// Writing the protocol's JSON straight into a frame's bytes, for the hand-written coding of the frequent
/// messages (`HandCoding.swift`): the very text `WireEncoder` writes, without a tree in between.
extension [UInt8] {
    /// Appends JSON text written in the source (keys, punctuation, whole fragments).
    mutating func put(_ literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends a whole number in decimal.
    mutating func put(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = count
        repeat {
            append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        self[start...].reverse()
    }

    mutating func put(_ value: Bool) { value ? put("true") : put("false") }

    /// Appends a number as `WireEncoder` writes it; false (nothing written) for infinities and NaN, which JSON
    /// cannot hold (the general encoder then reports the error).
    mutating func put(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        append(contentsOf: value.description.utf8)
        return true
    }

    /// Appends a JSON string, escaped as `WireEncoder` escapes it.
    mutating func put(string: String) { WireJSON.write(string: string, to: &self) }
}

/// UTF-8 text written straight into a new string's storage, whose length the caller works out first:
/// the records' explanations are made this way, since growing a string piece by piece was most of their cost.
struct TextWriter {
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0

    /// The string `body` writes, in `capacity` bytes at most.
    static func string(capacity: Int, _ body: (inout TextWriter) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { bytes in
            var writer = TextWriter(bytes: bytes)
            body(&writer)
            return writer.count
        }
    }

    private init(bytes: UnsafeMutableBufferPointer<UInt8>) { self.bytes = bytes }

    /// Writes `text`'s UTF-8.
    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { source in
            let end = count + source.count
            _ = UnsafeMutableBufferPointer(rebasing: bytes[count..<end]).initialize(fromContentsOf: source)
            count = end
        }
    }

    /// Writes one byte (an ASCII character).
    mutating func write(byte: UInt8) {
        bytes[count] = byte
        count += 1
    }

    /// Writes a non-negative `value` in decimal, zero-padded to `digits` digits.
    mutating func write(_ value: Int, digits: Int) {
        var rest = value
        for position in stride(from: count + digits - 1, through: count, by: -1) {
            bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += digits
    }
}

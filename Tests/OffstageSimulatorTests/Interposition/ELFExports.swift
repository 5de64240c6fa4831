import Foundation

/// The functions an ELF file (a shared library, an executable) defines in its dynamic symbol table: what other
/// code in the process can resolve to it. Read from the file, so the tests see what the toolchain ships.
enum ELFExports {
    /// Why a file could not be read as a 64-bit little-endian ELF file.
    struct Unreadable: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }

    /// The names of the functions `path` defines and exports (global or weak, `STT_FUNC` or `STT_GNU_IFUNC`).
    static func functions(inFileAt path: String) throws -> Set<String> {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count > 64, bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46], bytes[4] == 2, bytes[5] == 1 else {
            throw Unreadable(path: path, reason: "not a 64-bit little-endian ELF file")
        }
        let sectionTable = Int(integer(bytes, at: 0x28, size: 8))
        let sectionSize = Int(integer(bytes, at: 0x3A, size: 2))
        let sections = (0..<Int(integer(bytes, at: 0x3C, size: 2))).map { sectionTable + $0 * sectionSize }
        guard let dynamicSymbols = sections.first(where: { integer(bytes, at: $0 + 4, size: 4) == 11 }) else {
            throw Unreadable(path: path, reason: "no dynamic symbol table (SHT_DYNSYM)")
        }
        let names = Int(
            integer(bytes, at: sections[Int(integer(bytes, at: dynamicSymbols + 40, size: 4))] + 24, size: 8))
        let start = Int(integer(bytes, at: dynamicSymbols + 24, size: 8))
        let count = Int(integer(bytes, at: dynamicSymbols + 32, size: 8)) / 24
        var functions: Set<String> = []
        for symbol in (0..<count).map({ start + $0 * 24 }) {
            let info = bytes[symbol + 4]
            let isFunction = info & 0xF == 2 || info & 0xF == 10
            let isVisible = info >> 4 == 1 || info >> 4 == 2
            guard isFunction, isVisible, integer(bytes, at: symbol + 6, size: 2) != 0 else { continue }
            let name = names + Int(integer(bytes, at: symbol, size: 4))
            let end = bytes[name...].firstIndex(of: 0) ?? bytes.count
            functions.insert(String(decoding: bytes[name..<end], as: UTF8.self))
        }
        return functions
    }

    /// The path of the loaded shared library whose file name starts with `name` (from `/proc/self/maps`).
    static func loadedLibrary(named name: String) throws -> String {
        // Read to the end: procfs files report a size of 0.
        let maps = try String(
            decoding: FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd() ?? Data(),
            as: UTF8.self)
        let paths = maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        guard let path = paths.first(where: { ($0 as NSString).lastPathComponent.hasPrefix(name) }) else {
            throw Unreadable(path: name, reason: "not loaded in this process")
        }
        return path
    }

    /// The little-endian unsigned integer of `size` bytes at `offset`.
    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        (0..<size).reduce(0) { value, index in value | UInt64(bytes[offset + index]) << (8 * index) }
    }
}

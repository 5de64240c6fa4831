package import Glibc

/// Small reads and writes of kernel files (/sys, /proc, cgroupfs) with plain system calls:
/// no buffering, no Foundation, so that a freeze costs one `write`.
package enum SysFile {
    /// The file's text, or nil if it cannot be read.
    package static func read(_ path: String) -> String? { bytes(path).map { String(decoding: $0, as: UTF8.self) } }

    /// The file's bytes, or nil if it cannot be read.
    package static func bytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        while true {
            let start = bytes.count
            bytes += repeatElement(0, count: 4096)
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + start, 4096) }
            bytes.removeLast(4096 - max(0, n))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
        }
        return bytes
    }

    /// The whole numbers in `bytes`, in order (`cgroup.procs`, `/proc/PID/statm`): read from the bytes, not
    /// through `String` (the sampler reads these for every running app).
    package static func numbers(in bytes: [UInt8]) -> [Int] {
        var result: [Int] = []
        var value: Int?
        for byte in bytes {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                value = (value ?? 0) &* 10 &+ Int(byte - UInt8(ascii: "0"))
            } else if let number = value {
                result.append(number)
                value = nil
            }
        }
        if let value { result.append(value) }
        return result
    }

    /// The whole number after `key` and a space at the start of a line ("usage_usec 1234" in `cpu.stat`).
    package static func number(after key: StaticString, in bytes: [UInt8]) -> Int? {
        let key = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let line = bytes[lineStart..<lineEnd]
            if line.starts(with: key), line.dropFirst(key.count).first == UInt8(ascii: " ") {
                return numbers(in: Array(line.dropFirst(key.count))).first
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// Writes `text` in one `write`; false (with `errno` set) if the kernel refused.
    @discardableResult
    package static func write(_ path: String, _ text: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// A pipe whose ends do not block and close on `exec`, for waking a thread's `poll` from another thread; nil
    /// (with `errno`) when the system has no descriptor left.
    package static func wakeUpPipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }

    /// The names of the folders in `path` (none if it cannot be read).
    package static func subdirectories(of path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            guard entry.pointee.d_type == UInt8(DT_DIR) else { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates a directory (and its parents); true if it exists afterwards.
    @discardableResult
    package static func makeDirectory(_ path: String, mode: mode_t = 0o755) -> Bool {
        if exists(path) { return true }
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !parent.isEmpty && !exists(parent) { makeDirectory(parent, mode: mode) }
        return mkdir(path, mode) == 0 || errno == EEXIST
    }

    /// The value after `key` in a "key value" file (`cgroup.events`, `cpu.stat`, `/proc/PID/status`).
    package static func field(_ key: String, in text: String) -> String? {
        for line in text.split(separator: "\n") {
            let parts = line.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == ":" || $0 == "\t" })
            if parts.count == 2, parts[0] == key { return parts[1].trimmingCharacters(in: " \t") }
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        return String(
            drop(while: { characters.contains($0) }).reversed().drop(while: { characters.contains($0) })
                .reversed())
    }
}

import Glibc

/// Small reads and writes of kernel files (/sys, /proc, cgroupfs) with plain system calls:
/// no buffering, no Foundation, so that a freeze costs one `write`.
enum SysFile {
    /// The file's text, or nil if it cannot be read.
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `text` in one `write`; false (with `errno` set) if the kernel refused.
    @discardableResult
    static func write(_ path: String, _ text: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Creates a directory (and its parents); true if it exists afterwards.
    @discardableResult
    static func makeDirectory(_ path: String, mode: mode_t = 0o755) -> Bool {
        if exists(path) { return true }
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !parent.isEmpty && !exists(parent) { makeDirectory(parent, mode: mode) }
        return mkdir(path, mode) == 0 || errno == EEXIST
    }

    /// The value after `key` in a "key value" file (`cgroup.events`, `cpu.stat`, `/proc/PID/status`).
    static func field(_ key: String, in text: String) -> String? {
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

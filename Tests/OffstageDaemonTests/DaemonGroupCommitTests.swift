import Foundation
import OffstageCore
import Synchronization
import Testing

@testable import OffstageDaemon

/// Group commit: the store's log is synced on a thread of its own while the loop serves on, and an answer that
/// acknowledges a change is still sent only after an `fsync` that began after the change was written.
@Suite(.serialized) struct DaemonGroupCommitTests {
    /// Every answer to a durable change (20 `setLowDataMode` events, each changing the setting, each sent after the
    /// answer to the last) is sent after an `fsync` of the write-ahead log that began once the commit holding the
    /// change was written (the first commit frame written to the log after the previous answer) and ended before the
    /// answer: the daemon traced with `strace -f` (every thread, entry and exit times).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "needs strace"))
    func everyAcknowledgedAnswerIsSentAfterAnFsyncThatBeganAfterItsCommit() throws {
        let daemon = try DaemonHarness()
        let pid = try #require(daemon.daemonProcessID)
        let traceFile = daemon.folder + "/trace.txt"
        let strace = Process()
        strace.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        strace.arguments = [
            "-f", "-tt", "-T", "-y", "-e", "trace=pwrite64,fsync,fdatasync,sendto", "-o", traceFile,
            "-p", "\(pid)",
        ]
        strace.standardError = FileHandle.nullDevice
        try strace.run()
        defer { if strace.isRunning { kill(strace.processIdentifier, SIGKILL) } }
        // strace attaches to each of the daemon's threads in turn: the changes are made once all are traced.
        try daemon.waitUntil("strace has attached to every thread") {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return !threads.isEmpty
                && threads.allSatisfy { thread in
                    let status =
                        (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8)) ?? ""
                    return status.split(separator: "\n").contains { $0.hasPrefix("TracerPid:") && !$0.hasSuffix("\t0") }
                }
        }
        let changes = 20
        for round in 0..<changes { try daemon.send(.setLowDataMode(round % 2 == 0)) }
        // strace inherits the test runner's blocked signals (SIGINT, SIGTERM): it is killed, which detaches it (it
        // has written each call as it ended).
        kill(strace.processIdentifier, SIGKILL)
        strace.waitUntilExit()

        let calls = TracedCalls(try String(contentsOfFile: traceFile, encoding: .utf8)).all
        let answers = calls.filter { $0.name == "sendto" }.suffix(changes)
        #expect(answers.count == changes, "\(answers.count) answers traced for \(changes) changes")
        for (previous, answer) in zip(answers.dropLast(), answers.dropFirst()) {
            let commit = try #require(
                calls.first { $0.name == "pwrite64" && $0.isCommitFrame && $0.start > previous.end },
                "no commit written between two answers")
            let covering = calls.contains {
                ($0.name == "fsync" || $0.name == "fdatasync") && $0.file.hasSuffix("-wal") && $0.start >= commit.end
                    && $0.end <= answer.start
            }
            #expect(
                covering,
                "an answer at \(answer.start) was sent before its commit (written at \(commit.end)) was synced")
        }
    }

    /// The sync thread reports each sync with the latest generation asked for before it began, in order, up to the
    /// last one asked for.
    @Test func theSyncThreadReportsEveryGenerationAskedForInOrder() throws {
        let path = NSTemporaryDirectory() + "offstage-sync-\(UUID().uuidString.prefix(8))"
        try #require(FileManager.default.createFile(atPath: path, contents: Data("log".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reports = Reports()
        let syncer = StoreSyncer(walPath: path) { reports.add($0) }
        syncer.start()
        for generation in 1...50 { syncer.request(UInt64(generation)) }
        let synced = try reports.waitFor(generation: 50)
        syncer.stop()
        #expect(synced == synced.sorted() && Set(synced).count == synced.count, "reported out of order: \(synced)")
        #expect(synced.last == 50)
    }

    /// A log that cannot be synced is reported as a failed sync naming the file (the daemon logs it and answers).
    @Test func aLogThatCannotBeSyncedIsReportedNamingIt() throws {
        let reports = Reports()
        let syncer = StoreSyncer(walPath: "/nonexistent-offstage/offstage.sqlite-wal") { reports.add($0) }
        syncer.start()
        syncer.request(1)
        _ = try reports.waitFor(generation: 1)
        syncer.stop()
        guard case .failed(1, let reason) = reports.first else {
            Issue.record("reported \(String(describing: reports.first))")
            return
        }
        #expect(reason.contains("/nonexistent-offstage/offstage.sqlite-wal"))
    }
}

/// What a `StoreSyncer` reported, for a test to wait on.
private final class Reports: Sendable {
    private let reports = Mutex<[StoreSyncer.Report]>([])

    func add(_ report: StoreSyncer.Report) { reports.withLock { $0.append(report) } }

    var first: StoreSyncer.Report? { reports.withLock { $0.first } }

    /// The generations reported, once one at or past `generation` is (polled, for at most 10 s).
    func waitFor(generation: UInt64) throws -> [UInt64] {
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            let generations = reports.withLock { $0.map(\.generation) }
            if let last = generations.last, last >= generation { return generations }
            usleep(1000)
        }
        throw HarnessError("no sync of generation \(generation) reported in 10 s")
    }
}

/// System calls as `strace -f -tt -T -y` wrote them: name, file (the first argument's path, `-y`), and start and
/// end in seconds of the day (a call cut by another thread's is put together from its two lines).
private struct TracedCalls {
    struct Call {
        var name: String
        var file: String
        var start: Double
        var end: Double
        /// A write of a write-ahead log frame header that ends a commit (its second field, the database's size in
        /// pages after the commit, is not 0), from the bytes strace shows.
        var isCommitFrame = false
    }
    var all: [Call] = []

    init(_ text: String) {
        var unfinished: [String: Call] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 2)
            guard words.count == 3, let time = Self.seconds(words[1]) else { continue }
            let thread = String(words[0])
            let rest = words[2]
            if rest.hasPrefix("<... ") {
                guard var call = unfinished.removeValue(forKey: thread) else { continue }
                call.end = time
                all.append(call)
                continue
            }
            guard let open = rest.firstIndex(of: "(") else { continue }
            let name = String(rest[..<open])
            let file =
                rest[open...].split(separator: "<", maxSplits: 1).dropFirst().first
                .map { String($0.prefix { $0 != ">" }) } ?? ""
            var call = Call(name: name, file: file, start: time, end: time)
            if name == "pwrite64", file.hasSuffix("-wal"), let bytes = Self.firstBytes(of: rest), bytes.count >= 8,
                rest.contains(", 24, ")
            {
                call.isCommitFrame = bytes[4..<8].contains { $0 != 0 }
            }
            if rest.hasSuffix("<unfinished ...>") {
                unfinished[thread] = call
                continue
            }
            if let open = rest.lastIndex(of: "<"), let duration = Double(rest[rest.index(after: open)...].dropLast()) {
                call.end = time + duration
            }
            all.append(call)
        }
        all.sort { $0.start < $1.start }
    }

    /// The bytes of the first string argument as strace writes it (`"\\0\\0\\0\\t\\335…"`: C escapes, octal).
    static func firstBytes(of call: Substring) -> [UInt8]? {
        guard let quote = call.firstIndex(of: "\"") else { return nil }
        var bytes: [UInt8] = []
        var characters = call[call.index(after: quote)...].utf8.makeIterator()
        while let byte = characters.next(), byte != UInt8(ascii: "\"") {
            guard byte == UInt8(ascii: "\\"), let escaped = characters.next() else {
                bytes.append(byte)
                continue
            }
            switch escaped {
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                // Up to three octal digits; strace writes as few as the next character allows.
                var value = Int(escaped - UInt8(ascii: "0"))
                var lookahead = characters
                for _ in 0..<2 {
                    guard let digit = lookahead.next(), (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else {
                        break
                    }
                    value = value * 8 + Int(digit - UInt8(ascii: "0"))
                    characters = lookahead
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
            case UInt8(ascii: "t"): bytes.append(9)
            case UInt8(ascii: "n"): bytes.append(10)
            case UInt8(ascii: "v"): bytes.append(11)
            case UInt8(ascii: "f"): bytes.append(12)
            case UInt8(ascii: "r"): bytes.append(13)
            default: bytes.append(escaped)
            }
        }
        return bytes
    }

    /// "14:40:01.123456" in seconds.
    static func seconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":")
        guard parts.count == 3, let h = Double(parts[0]), let m = Double(parts[1]), let s = Double(parts[2]) else {
            return nil
        }
        return h * 3600 + m * 60 + s
    }
}

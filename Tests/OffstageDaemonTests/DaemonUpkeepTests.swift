import Foundation
import Glibc
import OffstageCore
import OffstageLinux
import OffstageProtocol
import Testing

@testable import OffstageDaemon

/// What the daemon does besides answering: the decisions it holds for the log, the heap it gives back after a
/// burst, and the device probes that run only while work waits.
@Suite struct DaemonUpkeepTests {
    @Test func decisionsWaitingForTheLogNeverExceedTwiceItsLimitAndTheLatestAreWritten() {
        var buffer = DecisionBuffer(limit: 10)
        var most = 0
        for index in 0..<95 {
            buffer.append(
                Record(at: Instant(seconds: Double(index)), app: "test.flood", kind: .log, reason: "\(index)"))
            most = max(most, buffer.count)
        }
        #expect(most < 20, "a flood of decisions is held under twice the log's limit")
        let written = buffer.take()
        #expect(written.map(\.reason) == (85..<95).map { "\($0)" }, "the latest ten, oldest first")
        #expect(buffer.isEmpty)
        buffer.append(Record(at: Instant(seconds: 100), app: "test.flood", kind: .log, reason: "after"))
        #expect(buffer.take().map(\.reason) == ["after"])
    }

    /// Memory a burst freed inside the heap (between blocks still in use, so the allocator cannot give it back by
    /// itself) stays resident until the trim; after it, its pages are the kernel's again.
    @Test func theHeapTrimGivesPagesFreedInsideTheHeapBackToTheKernel() {
        #expect(HeapTrim.isAvailable)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let size = 4000
        // Sixteen runs of 511 blocks, each followed by one kept in use (the last of its 512). Tests running beside
        // this one allocate in the same heap, so some runs are scattered: only those laid out in order are read.
        let blocks = (0..<8192).map { _ -> UnsafeMutableRawPointer in
            let block = malloc(size)!
            memset(block, 1, size)
            return block
        }
        // The whole pages between the first block of a run and the kept one, where the allocator placed the run's
        // blocks one after the other (a run that reused scattered free space is left out).
        var freed: [(start: Int, end: Int)] = []
        for run in 0..<16 {
            let addresses = blocks[run * 512..<run * 512 + 512].map { Int(bitPattern: $0) }
            let step = addresses[1] - addresses[0]
            guard step > 0, step < size + 64, zip(addresses, addresses.dropFirst()).allSatisfy({ $1 - $0 == step })
            else { continue }
            freed.append(((addresses[0] + page - 1) / page * page, addresses[511] / page * page))
        }
        for (index, block) in blocks.enumerated() where index % 512 != 511 { free(block) }
        defer { for (index, block) in blocks.enumerated() where index % 512 == 511 { free(block) } }
        #expect(!freed.isEmpty, "the allocator placed no run in order")
        func residentShare() -> Double {
            var resident = 0
            var total = 0
            for (start, end) in freed {
                var flags = [UInt8](repeating: 0, count: (end - start) / page)
                guard mincore(UnsafeMutableRawPointer(bitPattern: start), end - start, &flags) == 0 else { return -1 }
                resident += flags.filter { $0 & 1 != 0 }.count
                total += flags.count
            }
            return Double(resident) / Double(max(1, total))
        }
        #expect(residentShare() > 0.9, "freed, but still resident")
        HeapTrim.now()
        #expect(residentShare() < 0.5, "given back")
    }

    /// Whether work waits is kept as a flag between exact looks; an app's call that leaves a request pending sets
    /// it, and the device is probed from then on (every `--probe-interval`). No control command follows the
    /// app's call here: each one looks again exactly, and would set the flag itself.
    @Test func anAppsCallThatLeavesARequestWaitingStartsTheDeviceProbes() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer, options: ["--probe-interval", "0.1"])
        func probes() -> Int {
            let log = (try? String(contentsOfFile: daemon.folder + "/daemon.log", encoding: .utf8)) ?? ""
            return log.components(separatedBy: "probed the device").count - 1
        }
        try daemon.install("test.later", behaviours: ["later"])
        _ = try daemon.openAndWait("test.later")
        let before = probes()
        try daemon.send(.home)
        try daemon.waitUntil("the app submitted its refresh for an hour from now") {
            daemon.events("test.later").contains("submitted later")
        }
        try daemon.waitUntil("the device is probed again and again while the refresh waits") {
            probes() >= before + 3
        }
    }
}

import Foundation
import Testing

@testable import OffstageLinux

/// The readers of the kernel's small text files (`cgroup.procs`, `cpu.stat`, `/proc/PID/status`), on their bytes.
@Suite struct SysFileTests {
    @Test func numbersAreReadInOrderFromTheBytes() {
        #expect(SysFile.numbers(in: Array("12 345\n6\n".utf8)) == [12, 345, 6])
        #expect(SysFile.numbers(in: Array("4096 1234 0 7".utf8)) == [4096, 1234, 0, 7])
        #expect(SysFile.numbers(in: []) == [])
    }

    @Test func theNumberAfterAKeyIsTakenOnlyAtTheStartOfItsLine() {
        let cpuStat = Array("usage_usec 1234\nuser_usec 1000\nsystem_usec 234\n".utf8)
        #expect(SysFile.number(after: "usage_usec", in: cpuStat) == 1234)
        #expect(SysFile.number(after: "system_usec", in: cpuStat) == 234)
        #expect(SysFile.number(after: "usec", in: cpuStat) == nil)
        #expect(SysFile.number(after: "usage", in: cpuStat) == nil)
    }

    @Test func aFieldIsReadAfterItsKeyWhateverTheSeparator() {
        #expect(SysFile.field("VmRSS", in: "Name:\tcat\nVmRSS:\t  1234 kB\n") == "1234 kB")
        #expect(SysFile.field("frozen", in: "populated 1\nfrozen 0\n") == "0")
        #expect(SysFile.field("missing", in: "populated 1\n") == nil)
    }

    /// As the kernel's files are: an existing file is written in place, a missing one is never created.
    @Test func anExistingFileIsWrittenReadAndListedAndAMissingOneNotCreated() throws {
        let folder = NSTemporaryDirectory() + "offstage-sysfile-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(SysFile.makeDirectory(folder + "/a/b"))
        #expect(FileManager.default.createFile(atPath: folder + "/a/value", contents: nil))
        #expect(SysFile.write(folder + "/a/value", "42\n"))
        #expect(SysFile.read(folder + "/a/value") == "42\n")
        #expect(SysFile.exists(folder + "/a/value"))
        #expect(SysFile.subdirectories(of: folder + "/a") == ["b"])
        #expect(SysFile.read(folder + "/none") == nil)
        #expect(!SysFile.write(folder + "/a/none", "1"))
        #expect(!SysFile.exists(folder + "/a/none"))
    }
}

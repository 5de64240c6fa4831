// offstage-bench: the daemon's benchmarks (not tests; see BENCHMARKS.md). Run as root for the freezer figures:
//   swift build -c release && .build/release/offstage-bench [--idle-seconds 60] [--rounds 2000]
// Started by the daemon (OFFSTAGE_SOCKET set), the same binary is the benchmark's app.
import Foundation
import OffstageCore
import OffstageProtocol

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Double) -> Double {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? Double(arguments[$0 + 1]) : nil }
        ?? fallback
}
/// Round trips to make; the app (started by the daemon, without arguments) reads it from its environment.
let rounds = Int(
    ProcessInfo.processInfo.environment["OFFSTAGE_BENCH_ROUNDS"].flatMap(Double.init) ?? option("--rounds", 2000))

/// Nanoseconds on the monotonic clock.
func nanos() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func percentile(_ values: [Double], _ p: Double) -> Double { values.sorted()[Int(Double(values.count - 1) * p)] }
func micros(_ value: Double) -> String { String(format: "%.2f µs", value / 1000) }

// MARK: The app side: round trips through the daemon, and a bare echo in the same process

/// Sends app calls and waits for their results, answering life-cycle callbacks meanwhile.
final class AppConnection {
    let socket: UnixSocket
    var nextID = 1
    init(_ socket: UnixSocket) { self.socket = socket }

    /// Answers life-cycle callbacks (and ignores the rest) until the daemon ends the app.
    func serve() -> Never {
        while true {
            guard let message = try? socket.receiveMessage(ServerMessage.self) else { exit(0) }
            if case .effect(.deliver(_, _, let token)) = message {
                nextID += 1
                try? socket.sendMessage(
                    ClientMessage(id: nextID, body: .call(call: .returned(token: token), bundle: nil)))
            }
        }
    }

    func call(_ call: AppCall) throws -> AppCallResult {
        let id = nextID
        nextID += 1
        try socket.sendMessage(ClientMessage(id: id, body: .call(call: call, bundle: nil)))
        while true {
            switch try socket.receiveMessage(ServerMessage.self) {
            case .result(id, let result): return result
            case .effect(.deliver(_, _, let token)):
                nextID += 1
                try socket.sendMessage(
                    ClientMessage(id: nextID, body: .call(call: .returned(token: token), bundle: nil)))
            default: continue
            }
        }
    }
}

/// A bare echo server in its own process (as the daemon is): accepts one client on a Unix socket and
/// sends every byte back, with no decoding at all.
func runEchoServer(_ path: String) -> Never {
    unlink(path)
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = try! UnixSocket.makeAddress(path)
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    listen(listener, 1)
    let fd = accept(listener, nil, nil)
    let server = UnixSocket(fd: fd)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        guard n > 0 else { exit(0) }
        try? server.writeAll(Data(buffer[0..<n]))
    }
}

/// Round trips of `frame` through the echo server.
func bareEchoRoundTrips(_ count: Int, frame: Data) -> [Double] {
    let path = NSTemporaryDirectory() + "offstage-echo-\(getpid()).sock"
    let server = Process()
    server.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    server.arguments = ["--echo-server", path]
    server.environment = [:]
    try! server.run()
    var connected: UnixSocket?
    while connected == nil {
        connected = try? UnixSocket.connecting(to: path)
        if connected == nil { usleep(1000) }
    }
    let client = connected!
    var samples: [Double] = []
    var reply = [UInt8](repeating: 0, count: frame.count)
    for _ in 0..<count {
        let start = nanos()
        try? client.writeAll(frame)
        var got = 0
        while got < frame.count { got += max(0, recv(client.fd, &reply[got], frame.count - got, 0)) }
        samples.append(Double(nanos() - start))
    }
    client.disconnect()
    server.waitUntilExit()
    unlink(path)
    return samples
}

func runAsApp() -> Never {
    let environment = ProcessInfo.processInfo.environment
    guard let socket = try? UnixSocket.connecting(to: environment["OFFSTAGE_SOCKET"] ?? "") else { exit(1) }
    let app = AppConnection(socket)
    var daemon: [Double] = []
    for _ in 0..<rounds {
        let start = nanos()
        guard case .backgroundTask(let number) = try! app.call(.beginBackgroundTask(name: "bench")) else { exit(2) }
        _ = try! app.call(.endBackgroundTask(number))
        daemon.append(Double(nanos() - start) / 2)
    }
    let frame = try! Frame.encode(
        ClientMessage(id: 1, body: .call(call: .beginBackgroundTask(name: "bench"), bundle: nil)))
    let echo = bareEchoRoundTrips(rounds, frame: frame)
    let result = "\(median(daemon)) \(percentile(daemon, 0.9)) \(median(echo)) \(percentile(echo, 0.9))\n"
    try! result.write(toFile: environment["OFFSTAGE_BENCH_OUT"]!, atomically: true, encoding: .utf8)
    app.serve()
}

/// Median nanoseconds per run of `body`, timed in batches of 100 so that the clock's own cost stays out.
func perRun(_ body: () -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<max(1, rounds / 100) {
        let start = nanos()
        for _ in 0..<100 { body() }
        samples.append(Double(nanos() - start) / 100)
    }
    return median(samples)
}

/// `--codec`: the cost of one round trip's four codings (the app encodes a call, the daemon decodes it,
/// encodes the result, the app decodes it) as the socket code does them (frames appended to a kept buffer, read
/// from a `FrameBuffer`), and of the core's answer, in this process, without sockets.
func measureCodec() -> Never {
    let call = ClientMessage(id: 7, body: .call(call: .beginBackgroundTask(name: "bench"), bundle: nil))
    let result = ServerMessage.result(id: 7, result: .backgroundTask(1))
    var out: [UInt8] = []
    var frames = FrameBuffer()
    func encode(_ message: some Codable) {
        out.removeAll(keepingCapacity: true)
        try! Frame.append(message, to: &out)
    }
    func decode<Message: Codable & Sendable>(_ type: Message.Type, _ frame: [UInt8]) {
        frame.withUnsafeBytes { frames.append($0) }
        guard case .message = frames.next(type) else { fatalError("the frame does not decode") }
    }
    let callFrame = try! Frame.encode(call)
    let resultFrame = try! Frame.encode(result)
    let encodeCall = perRun { encode(call) }
    let decodeCall = perRun { decode(ClientMessage.self, Array(callFrame)) }
    let encodeResult = perRun { encode(result) }
    let decodeResult = perRun { decode(ServerMessage.self, Array(resultFrame)) }
    var system = BackgroundSystem()
    let app = BundleID("bench.app")
    _ = system.install(AppManifest(bundleIdentifier: app, backgroundModes: [.fetch]), at: .zero)
    _ = system.handle(.open(app), at: .zero)
    var index = 0
    let core =
        perRun {
            index += 1
            let (answer, _) = system.call(
                .beginBackgroundTask(name: "bench"), from: app, at: Instant(seconds: Double(index)))
            if case .backgroundTask(let number) = answer {
                _ = system.call(.endBackgroundTask(number), from: app, at: Instant(seconds: Double(index)))
            }
        } / 2
    print(
        "four codings per call: \(micros(encodeCall + decodeCall + encodeResult + decodeResult)) "
            + "(encode call \(micros(encodeCall)), decode call \(micros(decodeCall)), "
            + "encode result \(micros(encodeResult)), decode result \(micros(decodeResult))); "
            + "core call: \(micros(core)) (medians per run)")
    exit(0)
}

if arguments.contains("--codec") { measureCodec() }
if OffstageApplicationEnvironment.isApp { runAsApp() }
if let index = arguments.firstIndex(of: "--echo-server") { runEchoServer(arguments[index + 1]) }

enum OffstageApplicationEnvironment {
    static var isApp: Bool { ProcessInfo.processInfo.environment["OFFSTAGE_SOCKET"] != nil }
}

// MARK: The driver

let executable = URL(fileURLWithPath: arguments[0]).standardizedFileURL
let products = executable.deletingLastPathComponent()
let folder = NSTemporaryDirectory() + "offstage-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: folder + "/state", withIntermediateDirectories: true)
let socketPath = folder + "/offstage.sock"
let cgroupName = "offstage-bench"

func startDaemon() throws -> Process {
    let daemon = Process()
    daemon.executableURL = products.appendingPathComponent("offstage")
    daemon.arguments = [
        "daemon", "--state-dir", folder + "/state", "--socket", socketPath, "--cgroup-name", cgroupName,
        "--log-level", "warning",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["OFFSTAGE_BENCH_OUT"] = folder + "/roundtrip.txt"
    environment["OFFSTAGE_BENCH_ROUNDS"] = "\(rounds)"
    daemon.environment = environment
    try daemon.run()
    for _ in 0..<500 where (try? ControlClient(path: socketPath).send(.status)) == nil { usleep(10_000) }
    return daemon
}

func makeBundle(_ id: String, executable: String) throws -> String {
    let path = "\(folder)/\(id).app"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try? FileManager.default.createSymbolicLink(atPath: path + "/app", withDestinationPath: executable)
    let plist: [String: Any] = ["CFBundleIdentifier": id, "CFBundleExecutable": "app", "UIBackgroundModes": ["fetch"]]
    try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        .write(to: URL(fileURLWithPath: path + "/Info.plist"))
    return path
}

func waitFor(_ what: String, timeout: Double = 10, _ condition: () -> Bool) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
        if condition() { return }
    }
    FileHandle.standardError.write(Data("offstage-bench: timed out waiting for \(what)\n".utf8))
    exit(1)
}

let control = { (command: ControlCommand) throws -> ControlReply in try ControlClient(path: socketPath).send(command) }
let daemon = try startDaemon()
let pid = daemon.processIdentifier
print("offstage-bench: \(rounds) rounds; daemon pid \(pid)")

// 1. begin/endBackgroundTask round trip through the daemon, against a bare echo in the same run.
_ = try control(.install(path: try makeBundle("bench.app", executable: executable.path)))
_ = try control(.event(event: .open("bench.app")))
waitFor("the round trips", timeout: 120) { FileManager.default.fileExists(atPath: folder + "/roundtrip.txt") }
let figures = try String(contentsOfFile: folder + "/roundtrip.txt", encoding: .utf8).split(separator: " ")
    .compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
print(
    "round trip (begin/endBackgroundTask, per call): daemon median \(micros(figures[0])) p90 \(micros(figures[1])); "
        + "bare echo median \(micros(figures[2])) p90 \(micros(figures[3])); ratio \(String(format: "%.2f", figures[0] / figures[2]))×"
)

// 2. Freeze and thaw through the daemon (home → frozen, open → thawed), against direct cgroup writes.
let group = "/sys/fs/cgroup/unified/\(cgroupName)/bench.app"
func frozen(_ path: String) -> Bool {
    (try? String(contentsOfFile: path + "/cgroup.events", encoding: .utf8))?.contains("frozen 1") ?? false
}
if getuid() == 0 && FileManager.default.fileExists(atPath: group + "/cgroup.freeze") {
    var viaDaemon: [Double] = []
    var direct: [Double] = []
    for _ in 0..<50 {
        var start = nanos()
        _ = try control(.event(event: .home))
        waitFor("frozen") { frozen(group) }
        _ = try control(.event(event: .open("bench.app")))
        waitFor("thawed") { !frozen(group) }
        viaDaemon.append(Double(nanos() - start))
        start = nanos()
        try "1".write(toFile: group + "/cgroup.freeze", atomically: false, encoding: .utf8)
        waitFor("frozen directly") { frozen(group) }
        try "0".write(toFile: group + "/cgroup.freeze", atomically: false, encoding: .utf8)
        waitFor("thawed directly") { !frozen(group) }
        direct.append(Double(nanos() - start))
    }
    print(
        "freeze + thaw: daemon median \(micros(median(viaDaemon))) p90 \(micros(percentile(viaDaemon, 0.9))); "
            + "direct cgroup write median \(micros(median(direct))) p90 \(micros(percentile(direct, 0.9))); "
            + "ratio \(String(format: "%.2f", median(viaDaemon) / median(direct)))×")
} else {
    print("freeze + thaw: skipped (needs root and the cgroup v2 freezer)")
}
_ = try control(.event(event: .swipeAway("bench.app")))

// 3. Memory with 100 installed apps.
func rssMB(_ pid: Int32) -> String { String(format: "%.1f MB", Double(status(pid, "VmRSS")) / 1024) }
print("memory with 1 installed app: VmRSS \(rssMB(pid))")
for index in 0..<100 { _ = try control(.install(path: try makeBundle("bench.app\(index)", executable: "/bin/true"))) }
func status(_ pid: Int32, _ key: String) -> Int {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
    return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
}
/// The proportional set size: resident pages, shared ones (the Swift runtime, Foundation) divided among their users.
func pssMB(_ pid: Int32) -> String {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix("Pss:") } ?? ""
    let kB = Double(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
    return String(format: "%.1f MB", kB / 1024)
}
print(
    "memory with 101 installed apps: VmRSS \(rssMB(pid)) (peak VmHWM \(String(format: "%.1f MB", Double(status(pid, "VmHWM")) / 1024))), "
        + "PSS \(pssMB(pid))"
)

// 4. Context switches of the idle daemon (every thread) over the idle period.
func switches(_ pid: Int32) -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.reduce(0) { total, tid in
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8)) ?? ""
        return total
            + ["voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"].reduce(0) { sum, key in
                let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
                return sum + (Int(line.split(separator: "\t").last ?? "") ?? 0)
            }
    }
}
let idle = option("--idle-seconds", 60)
usleep(1_500_000)  // Let the last decision-log write (within a second) happen first.
let before = (switches(pid), status(pid, "voluntary_ctxt_switches"))
Thread.sleep(forTimeInterval: idle)
let after = (switches(pid), status(pid, "voluntary_ctxt_switches"))
print(
    "idle daemon over \(Int(idle)) s: \(after.0 - before.0) context switches (all threads), "
        + "\(after.1 - before.1) voluntary on the main thread")

daemon.terminate()
daemon.waitUntilExit()
try? FileManager.default.removeItem(atPath: folder)

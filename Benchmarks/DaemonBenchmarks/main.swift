// offstage-bench: the daemon's benchmarks (not tests; see BENCHMARKS.md). Run as root for the freezer figures:
//   swift build -c release && .build/release/offstage-bench [--idle-seconds 60] [--rounds 2000] [--freezes 50]
//   .build/release/offstage-bench --codec | --coders [--coder hand|foundation] [--rounds 20000]: the coding
//   cost alone, in this process.
//   .build/release/offstage-bench --submits [--clients 200] [--rounds 25]: durable submits from many clients at once.
// Started by the daemon (OFFSTAGE_SOCKET set), the same binary is the benchmark's app.
import Foundation
import OffstageCore
import OffstageProtocol

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
/// The word after `name` on the command line, if given.
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
/// The number after `name` on the command line, or `fallback`.
func option(_ name: String, _ fallback: Double) -> Double { option(name).flatMap(Double.init) ?? fallback }
/// Round trips to make; the app (started by the daemon, without arguments) reads it from its environment.
let rounds = Int(
    ProcessInfo.processInfo.environment["OFFSTAGE_BENCH_ROUNDS"].flatMap(Double.init) ?? option("--rounds", 2000))

/// Nanoseconds on the monotonic clock, as the daemon times its freezer actions (`FreezerAction`).
func nanos() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Where the round trips run (`--placement`): `same` (default: the app, the daemon and the echo servers on CPU 0,
/// so each message is a switch on one CPU, as in a steady ping-pong), `split` (the app on CPU 1, the daemon and
/// the echo servers on CPU 0: each message wakes the other CPU), or `free` (wherever the scheduler puts them:
/// on this 2-CPU VM either of the two, run to run).
let placement =
    ProcessInfo.processInfo.environment["OFFSTAGE_BENCH_PLACEMENT"]
    ?? option("--placement")
    ?? "same"

/// Binds every thread of `pid` to `cpus` (nil: every CPU of the machine), with util-linux's `taskset`
/// (Swift's Glibc module does not offer `sched_setaffinity`).
func pin(_ pid: Int32, to cpus: [Int]?) {
    let list =
        cpus.map { $0.map(String.init).joined(separator: ",") } ?? "0-\(sysconf(Int32(_SC_NPROCESSORS_ONLN)) - 1)"
    let taskset = Process()
    taskset.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
    taskset.arguments = ["-a", "-p", "-c", list, "\(pid)"]
    taskset.standardOutput = FileHandle.nullDevice
    try? taskset.run()
    taskset.waitUntilExit()
}

/// The CPUs of the app and of the daemon (and echo servers) during the round trips, by `placement`.
let roundTripCPUs: (app: [Int]?, daemon: [Int]?) =
    switch placement {
    case "split": ([1], [0])
    case "free": (nil, nil)
    default: ([0], [0])
    }

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func percentile(_ values: [Double], _ p: Double) -> Double { values.sorted()[Int(Double(values.count - 1) * p)] }
func micros(_ value: Double) -> String { String(format: "%.2f µs", value / 1000) }
/// "median X p90 Y" of samples in nanoseconds.
func summary(_ values: [Double]) -> String {
    values.isEmpty ? "not reported" : "median \(micros(median(values))) p90 \(micros(percentile(values, 0.9)))"
}

// MARK: The app side: round trips through the daemon, and bare echoes in the same run

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

/// A bare echo server: accepts one client on a Unix socket at `path` and sends every byte back, with no decoding
/// at all; exits when the client leaves.
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
    unlink(path)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        guard n > 0 else { exit(0) }
        _ = send(fd, &buffer, n, Int32(MSG_NOSIGNAL))
    }
}

/// Starts this executable as an echo server listening at `path`.
func startEchoServer(_ path: String) -> Process {
    let server = Process()
    server.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    server.arguments = ["--echo-server", path]
    server.environment = [:]
    try! server.run()
    return server
}

/// Round trips of `frame` through the echo server at `path` (waiting for it to listen).
func echoRoundTrips(_ count: Int, path: String, frame: [UInt8]) -> [Double] {
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
        _ = frame.withUnsafeBytes { send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var got = 0
        while got < frame.count { got += max(0, recv(client.fd, &reply[got], frame.count - got, 0)) }
        samples.append(Double(nanos() - start))
    }
    client.disconnect()
    return samples
}

/// The app: round trips through the daemon, then through an echo server the driver started (outside the app's
/// control groups, where the daemon is), then through one the app starts itself (inside its groups); writes
/// the three medians and p90s (nanoseconds) for the driver, then answers callbacks until it is ended.
func runAsApp() -> Never {
    let environment = ProcessInfo.processInfo.environment
    if environment["OFFSTAGE_BENCH_MODE"] == "submits" { runSubmitsAsApp(environment) }
    guard let socket = try? UnixSocket.connecting(to: environment["OFFSTAGE_SOCKET"] ?? "") else { exit(1) }
    let app = AppConnection(socket)
    pin(getpid(), to: roundTripCPUs.app)
    var daemon: [Double] = []
    for _ in 0..<rounds {
        let start = nanos()
        guard case .backgroundTask(let number) = try! app.call(.beginBackgroundTask(name: "bench")) else { exit(2) }
        _ = try! app.call(.endBackgroundTask(number))
        daemon.append(Double(nanos() - start) / 2)
    }
    var frame: [UInt8] = []
    try! Frame.append(
        ClientMessage(id: 1, body: .call(call: .beginBackgroundTask(name: "bench"), bundle: nil)), to: &frame)
    let outside = echoRoundTrips(rounds, path: environment["OFFSTAGE_BENCH_ECHO"]!, frame: frame)
    let insidePath = NSTemporaryDirectory() + "offstage-echo-\(getpid()).sock"
    let inside = startEchoServer(insidePath)
    pin(inside.processIdentifier, to: roundTripCPUs.daemon)
    let besideApp = echoRoundTrips(rounds, path: insidePath, frame: frame)
    inside.waitUntilExit()
    pin(getpid(), to: nil)
    let figures = [daemon, outside, besideApp].map { "\(median($0)) \(percentile($0, 0.9))" }
    try! (figures.joined(separator: " ") + "\n").write(
        toFile: environment["OFFSTAGE_BENCH_OUT"]!, atomically: true, encoding: .utf8)
    app.serve()
}

/// The app of `--submits`: its first connection registers the refresh and answers callbacks on a thread of its
/// own; `OFFSTAGE_BENCH_CLIENTS` more connections submit (`SubmitClients`); writes "submits seconds p50 p99
/// failures" (nanoseconds) for the driver, or "failed: why", then waits to be ended.
func runSubmitsAsApp(_ environment: [String: String]) -> Never {
    let socketPath = environment["OFFSTAGE_SOCKET"] ?? ""
    let registered = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        guard let socket = try? UnixSocket.connecting(to: socketPath) else { exit(1) }
        let app = AppConnection(socket)
        guard case .registered(true) = try? app.call(.register(identifier: SubmitClients.identifier)) else { exit(3) }
        registered.signal()
        app.serve()
    }
    registered.wait()
    let figures: String
    do {
        let clients = try SubmitClients(
            socketPath: socketPath, clients: Int(environment["OFFSTAGE_BENCH_CLIENTS"] ?? "") ?? 200, rounds: rounds)
        let seconds = try clients.run()
        figures =
            "\(clients.latencies.count) \(seconds) \(median(clients.latencies)) "
            + "\(percentile(clients.latencies, 0.99)) \(clients.failures)"
    } catch { figures = "failed: \(error)" }
    try! (figures + "\n").write(toFile: environment["OFFSTAGE_BENCH_OUT"]!, atomically: true, encoding: .utf8)
    while true { pause() }
}

// MARK: The coding cost alone

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
    let callFrame = Array(try! Frame.encode(call))
    let resultFrame = Array(try! Frame.encode(result))
    let encodeCall = perRun {
        out.removeAll(keepingCapacity: true)
        try! Frame.append(call, to: &out)
    }
    let decodeCall = perRun {
        callFrame.withUnsafeBytes { frames.append($0) }
        guard case .message = frames.next(ClientMessage.self) else { fatalError("the call does not decode") }
    }
    let encodeResult = perRun {
        out.removeAll(keepingCapacity: true)
        try! Frame.append(result, to: &out)
    }
    let decodeResult = perRun {
        resultFrame.withUnsafeBytes { frames.append($0) }
        guard case .message = frames.next(ServerMessage.self) else { fatalError("the result does not decode") }
    }
    var system = BackgroundSystem()
    let app = BundleID("bench.app")
    _ = system.install(AppManifest(bundleIdentifier: app, backgroundModes: [.fetch]), at: .zero)
    _ = system.handle(.open(app), at: .zero)
    // Calls 10 µs apart, as in the round trips through the daemon.
    var index = 0
    let core =
        perRun {
            index += 1
            let (answer, _) = system.call(
                .beginBackgroundTask(name: "bench"), from: app, at: Instant(seconds: Double(index) / 100_000))
            if case .backgroundTask(let number) = answer {
                _ = system.call(.endBackgroundTask(number), from: app, at: Instant(seconds: Double(index) / 100_000))
            }
        } / 2
    print(
        "four codings per call: \(micros(encodeCall + decodeCall + encodeResult + decodeResult)) "
            + "(encode call \(micros(encodeCall)), decode call \(micros(decodeCall)), "
            + "encode result \(micros(encodeResult)), decode result \(micros(decodeResult))); "
            + "core call: \(micros(core)) (medians per run)")
    exit(0)
}

// MARK: The wire coders compared

/// One of the JSON coders that could write and read the protocol's envelopes.
enum WireCoderCandidate: String, CaseIterable {
    /// The hand-written coding of every message (`WireCoded`), what `Frame` uses.
    case hand
    /// Foundation's `JSONEncoder`/`JSONDecoder` (keys unsorted, slashes unescaped).
    case foundation

    /// The candidates `--coder NAME` names (to profile one alone), or all of them.
    static var chosen: [WireCoderCandidate] {
        option("--coder").map { name in allCases.filter { $0.rawValue == name } } ?? allCases
    }

    /// The envelope of `payload` as this coder writes it; nil when it does not write this form.
    func encode<Payload: Codable & WireCoded>(_ payload: Payload) -> [UInt8]? {
        switch self {
        case .hand:
            var out: [UInt8] = []
            return (try? Frame.appendEnvelope(payload, to: &out)).map { out }
        case .foundation:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            return (try? encoder.encode(Frame.Envelope(version: Frame.version, payload: payload))).map(Array.init)
        }
    }

    /// Reads an envelope's payload back; nil when this coder cannot.
    func decode<Payload: Codable & WireCoded>(_ type: Payload.Type, from bytes: [UInt8]) -> Payload? {
        switch self {
        case .hand: bytes.withUnsafeBufferPointer { try? Frame.decode(type, body: $0) }
        case .foundation: try? JSONDecoder().decode(Frame.Envelope<Payload>.self, from: Data(bytes)).payload
        }
    }
}

/// Times each candidate's encoding and decoding of `payload` and says whether its bytes are the wire's.
func compareCoders<Payload: Codable & Equatable & WireCoded>(_ name: String, _ payload: Payload) {
    guard let wire = WireCoderCandidate.hand.encode(payload) else { fatalError("\(name): the wire coder fails") }
    var line = "\(name) (\(wire.count) B):"
    for coder in WireCoderCandidate.chosen {
        guard let bytes = coder.encode(payload) else {
            line += " \(coder.rawValue) -;"
            continue
        }
        guard coder.decode(Payload.self, from: wire) == payload else { fatalError("\(name): \(coder) misreads") }
        let encode = perRun { _ = coder.encode(payload) }
        let decode = perRun { _ = coder.decode(Payload.self, from: wire) }
        line +=
            " \(coder.rawValue) encode \(micros(encode)), decode \(micros(decode))"
            + (bytes == wire ? ";" : " (other bytes: \(String(decoding: bytes, as: UTF8.self)));")
    }
    print(line)
}

/// `--coders`: the candidates for the protocol's one JSON coder, on the messages the daemon and apps exchange.
func measureCoders() -> Never {
    compareCoders(
        "call submit",
        ClientMessage(
            id: 7,
            body: .call(
                call: .submit(
                    TaskRequest(
                        identifier: "com.example.app.refresh", kind: .appRefresh, earliestBeginDate: 1_795_000_000.5)),
                bundle: nil)))
    compareCoders("result ok", ServerMessage.result(id: 7, result: .ok))
    compareCoders(
        "call beginBackgroundTask",
        ClientMessage(id: 7, body: .call(call: .beginBackgroundTask(name: "bench"), bundle: nil)))
    compareCoders("result backgroundTask", ServerMessage.result(id: 7, result: .backgroundTask(1)))
    compareCoders("call endBackgroundTask", ClientMessage(id: 8, body: .call(call: .endBackgroundTask(1), bundle: nil)))
    compareCoders(
        "effect deliver", ServerMessage.effect(effect: .deliver(BundleID("com.example.app"), .willTerminate, token: 5)))
    compareCoders("reply ok", ServerMessage.reply(id: 3, reply: .ok(message: "installed com.example.app")))
    exit(0)
}

if arguments.contains("--coders") { measureCoders() }
if arguments.contains("--codec") { measureCodec() }
if ProcessInfo.processInfo.environment["OFFSTAGE_SOCKET"] != nil { runAsApp() }
if let index = arguments.firstIndex(of: "--echo-server") { runEchoServer(arguments[index + 1]) }

// MARK: The driver

/// Says why the benchmark cannot go on, on standard error, and exits with status 1 (a clear end, not a trap).
func fail(_ why: String) -> Never {
    FileHandle.standardError.write(Data("offstage-bench: \(why)\n".utf8))
    exit(1)
}

let executable = URL(fileURLWithPath: arguments[0]).standardizedFileURL
let products = executable.deletingLastPathComponent()
// The daemon runs as `offstage daemon`, which hands over to `offstage-daemon`: both must be built beside this one.
for name in ["offstage", "offstage-daemon"]
where !FileManager.default.isExecutableFile(atPath: products.appendingPathComponent(name).path) {
    fail(
        "\(name) is not built beside offstage-bench in \(products.path): build it first "
            + "(swift build -c release --product \(name))")
}
let folder = NSTemporaryDirectory() + "offstage-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: folder + "/state", withIntermediateDirectories: true)
let socketPath = folder + "/offstage.sock"
let echoPath = folder + "/echo.sock"
let cgroupName = "offstage-bench"

/// Starts the daemon (with `options` besides the benchmark's own) and waits until it answers; ends the benchmark
/// with a clear error when the daemon ends before it answers.
func startDaemon(options: [String] = []) throws -> Process {
    let daemon = Process()
    daemon.executableURL = products.appendingPathComponent("offstage")
    daemon.arguments =
        [
            "daemon", "--state-dir", folder + "/state", "--socket", socketPath, "--cgroup-name", cgroupName,
            "--log-level", "warning",
            // The bench's apps are root's bundles (in root's temporary folder, writing its files): let them run as
            // root, as the figures before the rule did, instead of adding a user switch to every round trip.
            "--allow-root-apps",
        ] + options
    try daemon.run()
    for _ in 0..<500 where (try? ControlClient(path: socketPath).send(.status)) == nil {
        if !daemon.isRunning { fail("the daemon ended with status \(daemon.terminationStatus) before it answered") }
        usleep(10_000)
    }
    return daemon
}

/// Makes `id.app` linking to `executable`, its settings (`settings` over the round trips') in its `LSEnvironment`.
func makeBundle(_ id: String, executable: String, settings mode: [String: String] = [:]) throws -> String {
    let path = "\(folder)/\(id).app"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try? FileManager.default.createSymbolicLink(atPath: path + "/app", withDestinationPath: executable)
    // The app's settings, declared in its bundle (apps get a minimal environment, not the daemon's).
    let settings = [
        "OFFSTAGE_BENCH_OUT": folder + "/roundtrip.txt", "OFFSTAGE_BENCH_ROUNDS": "\(rounds)",
        "OFFSTAGE_BENCH_ECHO": echoPath, "OFFSTAGE_BENCH_PLACEMENT": placement,
    ].merging(mode) { _, given in given }
    let plist: [String: Any] = [
        "CFBundleIdentifier": id, "CFBundleExecutable": "app", "UIBackgroundModes": ["fetch"],
        "BGTaskSchedulerPermittedIdentifiers": [SubmitClients.identifier], "LSEnvironment": settings,
    ]
    try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        .write(to: URL(fileURLWithPath: path + "/Info.plist"))
    return path
}

/// Waits for `condition`, checking every `every` microseconds (0: spinning), for at most `timeout` seconds.
func waitFor(_ what: String, timeout: Double = 10, every: UInt32 = 0, _ condition: () -> Bool) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
        if condition() { return }
        if every > 0 { usleep(every) }
    }
    fail("timed out waiting for \(what)")
}

let control = { (command: ControlCommand) throws -> ControlReply in try ControlClient(path: socketPath).send(command) }
/// The daemon's CPU seconds so far (user and system, from `/proc/PID/stat`).
func cpuSeconds(_ pid: Int32) -> Double {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    let fields = text[(text.lastIndex(of: ")").map { text.index(after: $0) } ?? text.startIndex)...].split(
        separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// `--submits`: `--clients` connections of one app (200 by default) submit a refresh `--rounds` times each (25 by
/// default), each after the answer to its last, every answer durable; prints the rate, p50 and p99 of the answers,
/// and the daemon's CPU time over the run. The daemon lets one app hold that many connections.
func measureSubmits() throws -> Never {
    let clients = Int(option("--clients", 200))
    let submitRounds = Int(option("--rounds", 25))
    let daemon = try startDaemon(options: ["--max-connections-per-app", "\(clients + 16)"])
    let out = folder + "/submits.txt"
    let settings = [
        "OFFSTAGE_BENCH_MODE": "submits", "OFFSTAGE_BENCH_CLIENTS": "\(clients)", "OFFSTAGE_BENCH_OUT": out,
        "OFFSTAGE_BENCH_ROUNDS": "\(submitRounds)",
    ]
    _ = try control(.install(path: try makeBundle("bench.submit", executable: executable.path, settings: settings)))
    let cpuBefore = cpuSeconds(daemon.processIdentifier)
    _ = try control(.event(event: .open("bench.submit")))
    waitFor("the submits", timeout: 600, every: 10_000) { FileManager.default.fileExists(atPath: out) }
    let cpu = cpuSeconds(daemon.processIdentifier) - cpuBefore
    let text = try String(contentsOfFile: out, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    let numbers = text.split(separator: " ").compactMap { Double($0) }
    daemon.terminate()
    daemon.waitUntilExit()
    try? FileManager.default.removeItem(atPath: folder)
    guard numbers.count == 5 else { fail("the submits \(text)") }
    print(
        String(
            format: "submit from %d clients of one app × %d (every answer after the fsync that covers it): "
                + "%.0f/s, p50 %.1f ms, p99 %.1f ms, %d failed; the daemon used %.2f s of CPU in %.2f s",
            clients, submitRounds, numbers[0] / numbers[1], numbers[2] / 1e6, numbers[3] / 1e6, Int(numbers[4]), cpu,
            numbers[1]))
    exit(numbers[4] == 0 ? 0 : 1)
}
if arguments.contains("--submits") { try measureSubmits() }

// The echo server in the daemon's place (started here, so outside the app's control groups, as the daemon is).
let echoServer = startEchoServer(echoPath)
let daemon = try startDaemon()
let pid = daemon.processIdentifier
let daemonExecutable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? "?"
print("offstage-bench: \(rounds) rounds, placement \(placement); daemon pid \(pid) (\(daemonExecutable))")
pin(pid, to: roundTripCPUs.daemon)
pin(echoServer.processIdentifier, to: roundTripCPUs.daemon)

// 1. begin/endBackgroundTask round trip through the daemon, against bare echoes in the same run.
_ = try control(.install(path: try makeBundle("bench.app", executable: executable.path)))
_ = try control(.event(event: .open("bench.app")))
waitFor("the round trips", timeout: 600, every: 10_000) {
    FileManager.default.fileExists(atPath: folder + "/roundtrip.txt")
}
echoServer.waitUntilExit()
pin(pid, to: nil)
let figures = try String(contentsOfFile: folder + "/roundtrip.txt", encoding: .utf8).split(separator: " ")
    .compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
print(
    "round trip (begin/endBackgroundTask, per call): daemon median \(micros(figures[0])) p90 \(micros(figures[1])); "
        + "bare echo (server outside the app's groups, as the daemon) median \(micros(figures[2])) "
        + "p90 \(micros(figures[3])): ratio \(String(format: "%.2f", figures[0] / figures[2]))×; "
        + "bare echo beside the app (server in its groups) median \(micros(figures[4])) p90 \(micros(figures[5]))")

// 2. Freeze and thaw: the daemon's own path (its decision to the kernel's report), the whole user path
// (`ctl home` / `ctl open` to the kernel's report), and a direct write (by the watching thread, and by another
// thread), each timed two ways: to the kernel's own report (`KernelFreezerTrace`: its tracepoint, no watcher), and
// as a watcher sees it, woken by the kernel's change notification of `cgroup.events` (`poll`, `POLLPRI`), then
// reading it. No spinning reader takes a CPU or the cgroup's locks from the path measured. The kernel sends at most
// one notification per file every 10 ms, so every measured change comes 20 ms after the previous one.
let group =
    (["/sys/fs/cgroup/unified", "/sys/fs/cgroup"].first {
        FileManager.default.fileExists(atPath: "\($0)/\(cgroupName)")
    }
        ?? "/sys/fs/cgroup/unified") + "/\(cgroupName)/bench.app"
let events = getuid() == 0 ? open(group + "/cgroup.events", O_RDONLY) : -1
if events >= 0 {
    let freezeFile = open(group + "/cgroup.freeze", O_WRONLY)
    var text = [UInt8](repeating: 0, count: 256)
    func isFrozen() -> Bool {
        let n = pread(events, &text, text.count, 0)
        return n > 0 && String(decoding: text[0..<n], as: UTF8.self).contains("frozen 1")
    }
    /// Waits for the kernel to report the group's `frozen` as `frozen`; returns when it was seen.
    func observed(frozen: Bool) -> UInt64 {
        let deadline = nanos() + 10_000_000_000
        while isFrozen() != frozen {
            var watch = pollfd(fd: events, events: Int16(POLLPRI), revents: 0)
            guard nanos() < deadline, poll(&watch, 1, 1000) >= 0 else { fail("timed out waiting for the freezer") }
        }
        return nanos()
    }
    /// Leaves the kernel's notification interval behind before the next change.
    func settle() { usleep(20_000) }
    /// The daemon's timing of the freezer action just observed (nil from a daemon that does not report it).
    func lastAction(frozen: Bool, after start: UInt64) throws -> FreezerAction? {
        guard case .status(let status) = try control(.status) else { throw DaemonError(message: "no status") }
        guard let action = status.lastFreezerAction else { return nil }
        guard action.app == "bench.app", action.frozen == frozen, action.decidedAt >= start else {
            throw DaemonError(message: "the daemon reported another freezer action")
        }
        return action
    }
    struct DaemonError: Error { var message: String }
    /// Sends `command` on a new control connection (as `offstage ctl` does) without waiting for the reply, so
    /// that the kernel's report is watched from the moment the command leaves.
    func sendControl(_ command: ControlCommand) throws -> UnixSocket {
        let socket = try UnixSocket.connecting(to: socketPath)
        try socket.sendMessage(ClientMessage(id: 1, body: .control(command: command)))
        return socket
    }
    /// Reads the reply of `sendControl` and closes the connection.
    func finish(_ socket: UnixSocket) throws {
        defer { socket.disconnect() }
        guard case .reply = try socket.receiveMessage(ServerMessage.self) else {
            throw DaemonError(message: "the daemon refused the command")
        }
    }
    /// Who made a change: the daemon (from its decision), the benchmark writing `cgroup.freeze` itself (the
    /// watcher is the writer, awake), or the benchmark's other thread 1 ms (`--writer-delay-us`) after the watcher
    /// began waiting (the watcher asleep in `poll` when it comes, as it is for the daemon's changes).
    enum Path: CaseIterable {
        case daemon, direct, directAsleep
    }
    /// Freeze and thaw samples (nanoseconds), separately.
    struct Samples {
        var freeze: [Double] = []
        var thaw: [Double] = []
        mutating func append(_ value: Double, frozen: Bool) {
            if frozen { freeze.append(value) } else { thaw.append(value) }
        }
        /// "median … (freeze median …; thaw median …)", the medians of the sums of each freeze and its thaw first.
        var both: [Double] { zip(freeze, thaw).map(+) }
        var text: String { "\(summary(both)) (freeze \(summary(freeze)); thaw \(summary(thaw)))" }
    }
    /// The ratio of the medians of freeze + thaw, `a` to `b`.
    func ratio(_ a: Samples, _ b: Samples) -> String {
        a.both.isEmpty || b.both.isEmpty ? "n/a" : String(format: "%.2f×", median(a.both) / median(b.both))
    }
    var user = Samples()
    var seen: [Path: Samples] = [:]
    var toWrite = Samples()
    var write = Samples()
    /// Every change made, in order, for the kernel's own times (`KernelFreezerTrace`): whose, to frozen or
    /// thawed, when it began (the daemon's decision, or the direct write's start) and, for the daemon, its write.
    struct Change {
        var path: Path
        var frozen: Bool
        var start: UInt64
        var write: ClosedRange<UInt64>?
    }
    var changes: [Change] = []
    let trace = KernelFreezerTrace(groupPath: "/\(cgroupName)/bench.app")
    let writer = DelayedWriter(fd: freezeFile, delay: UInt32(option("--writer-delay-us", 1000)))
    for _ in 0..<Int(option("--freezes", 50)) {
        for frozen in [true, false] {
            settle()
            let start = nanos()
            let sent = try sendControl(.event(event: frozen ? .home : .open("bench.app")))
            let at = observed(frozen: frozen)
            try finish(sent)
            user.append(Double(at - start), frozen: frozen)
            if let action = try lastAction(frozen: frozen, after: start) {
                seen[.daemon, default: Samples()].append(Double(at - action.decidedAt), frozen: frozen)
                changes.append(
                    Change(
                        path: .daemon, frozen: frozen, start: action.decidedAt,
                        write: action.writingAt...action.writtenAt))
                toWrite.append(Double(action.writingAt - action.decidedAt), frozen: frozen)
                write.append(Double(action.writtenAt - action.writingAt), frozen: frozen)
            }
        }
        // Meanwhile the app answers its callbacks and waits again, as it did before the daemon froze it.
        for frozen in [true, false] {
            settle()
            let start = nanos()
            _ = pwrite(freezeFile, frozen ? "1" : "0", 1, 0)
            seen[.direct, default: Samples()].append(Double(observed(frozen: frozen) - start), frozen: frozen)
            changes.append(Change(path: .direct, frozen: frozen, start: start))
        }
        for frozen in [true, false] {
            settle()
            writer.write(frozen ? "1" : "0")
            let at = observed(frozen: frozen)
            let start = writer.started()
            seen[.directAsleep, default: Samples()].append(Double(at - start), frozen: frozen)
            changes.append(Change(path: .directAsleep, frozen: frozen, start: start))
        }
    }
    if let trace {
        // The kernel's report of each change, and its write: the first such events at or after the change began.
        let events = trace.events()
        trace.remove()
        var kernel: [Path: Samples] = [:]
        var inKernel: [Path: Samples] = [:]
        var toKernel: [Path: Samples] = [:]
        var writesWithin = 0
        for change in changes {
            // tracefs prints microseconds: an event at `at` happened in [at, at + 1 µs); its midpoint is used.
            func first(_ name: String, frozen: Bool? = nil) -> UInt64? {
                events.first {
                    $0.name == name && $0.at + 1000 > change.start && (frozen == nil || $0.frozen == frozen)
                }
                .map { $0.at + 500 }
            }
            guard let reported = first("cgroup_notify_frozen", frozen: change.frozen),
                let written = first(change.frozen ? "cgroup_freeze" : "cgroup_unfreeze")
            else { continue }
            if let window = change.write, window.contains(written) || written - window.upperBound < 500 {
                writesWithin += 1
            }
            let path = change.path
            kernel[path, default: Samples()].append(
                Double(Int64(reported) - Int64(change.start)), frozen: change.frozen)
            inKernel[path, default: Samples()].append(Double(Int64(reported) - Int64(written)), frozen: change.frozen)
            toKernel[path, default: Samples()].append(
                Double(Int64(written) - Int64(change.start)), frozen: change.frozen)
        }
        let byDaemon = kernel[.daemon] ?? Samples()
        let direct = kernel[.direct] ?? Samples()
        let otherThread = kernel[.directAsleep] ?? Samples()
        let parts: String =
            "start → the write in the kernel: freeze \(summary(toKernel[.daemon]?.freeze ?? [])) by the daemon, "
            + "\(summary(toKernel[.direct]?.freeze ?? [])) direct; thaw \(summary(toKernel[.daemon]?.thaw ?? [])) "
            + "by the daemon, \(summary(toKernel[.direct]?.thaw ?? [])) direct; inside the kernel (write → report): "
            + "freeze \(summary(inKernel[.daemon]?.freeze ?? [])) by the daemon, "
            + "\(summary(inKernel[.direct]?.freeze ?? [])) direct; thaw \(summary(inKernel[.daemon]?.thaw ?? [])) "
            + "by the daemon, \(summary(inKernel[.direct]?.thaw ?? [])) direct"
        print(
            "freeze + thaw to the kernel's report (tracepoint cgroup_notify_frozen, no watcher), the daemon's path "
                + "(core's decision →): \(byDaemon.text); direct write: \(direct.text): ratio \(ratio(byDaemon, direct)); "
                + "direct write from another thread: \(otherThread.text): ratio \(ratio(byDaemon, otherThread)); \(parts); "
                + "\(writesWithin) of \(byDaemon.freeze.count + byDaemon.thaw.count) of the daemon's writes reached "
                + "the kernel within the write it timed")
    } else {
        print("freeze + thaw to the kernel's report: skipped (needs tracefs and its cgroup events)")
    }
    let byDaemon = seen[.daemon] ?? Samples()
    let direct = seen[.direct] ?? Samples()
    let asleep = seen[.directAsleep] ?? Samples()
    print(
        "freeze + thaw as a watcher sees it (woken by poll on cgroup.events), the daemon's path (core's decision →): "
            + "\(byDaemon.text), decision → write: freeze \(summary(toWrite.freeze)), thaw \(summary(toWrite.thaw)); "
            + "the write itself: freeze \(summary(write.freeze)), thaw \(summary(write.thaw)); "
            + "direct write of cgroup.freeze (the watcher writes): \(direct.text): ratio \(ratio(byDaemon, direct)); "
            + "direct write from another thread (the watcher asleep, as for the daemon): \(asleep.text): "
            + "ratio \(ratio(byDaemon, asleep))")
    print(
        "freeze + thaw, the user's path (ctl home → frozen, ctl open → thawed, callbacks answered): "
            + "\(user.text): ratio to the direct write \(ratio(user, direct))")
    close(freezeFile)
    close(events)
} else {
    print("freeze + thaw: skipped (needs root and the cgroup v2 freezer)")
}
_ = try control(.event(event: .swipeAway("bench.app")))

// 3. Memory with 100 installed apps.
func status(_ pid: Int32, _ key: String) -> Int {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
    return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
}
/// A field of `/proc/PID/smaps_rollup` in kB: `Pss` (resident pages, shared ones divided among their users),
/// `Anonymous`.
func rollup(_ pid: Int32, _ key: String) -> Int {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
    return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
}
func mb(_ kB: Int) -> String { String(format: "%.1f MB", Double(kB) / 1024) }
/// The daemon's memory now, in words.
func memory() -> String {
    "VmRSS \(mb(status(pid, "VmRSS"))) (peak so far VmHWM \(mb(status(pid, "VmHWM")))), PSS \(mb(rollup(pid, "Pss"))), "
        + "anonymous \(mb(rollup(pid, "Anonymous"))), \(status(pid, "Threads")) threads"
}
print("memory with 1 installed app: VmRSS \(mb(status(pid, "VmRSS")))")
for index in 0..<100 { _ = try control(.install(path: try makeBundle("bench.app\(index)", executable: "/bin/true"))) }
print("memory with 101 installed apps, right after the installs: \(memory())")
// At rest: the decisions written (within a second), the loop waiting for its next due work, heap trimmed.
usleep(1_500_000)
print("memory with 101 installed apps, at rest 1.5 s later: \(memory())")

// 4. Context switches of the idle daemon (every thread) over the idle period.
/// Each thread's context switches (voluntary and not), by thread id.
func switches(_ pid: Int32) -> [String: Int] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return Dictionary(
        uniqueKeysWithValues: tasks.map { tid in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8)) ?? ""
            let count = ["voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"].reduce(0) { sum, key in
                let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
                return sum + (Int(line.split(separator: "\t").last ?? "") ?? 0)
            }
            return (tid, count)
        })
}
let idle = option("--idle-seconds", 60)
let before = switches(pid)
Thread.sleep(forTimeInterval: idle)
let after = switches(pid)
// Threads that ended meanwhile (the runtime's idle workers time out) are counted with their switches before.
let idleSwitches = after.reduce(0) { $0 + $1.value - (before[$1.key] ?? 0) }
let ended = before.keys.filter { after[$0] == nil }.count
print(
    "idle daemon over \(Int(idle)) s: \(idleSwitches) context switches on the threads it still has "
        + "(\(after.count); \(ended) idle runtime threads ended meanwhile), "
        + "\(after.values.max() == nil ? 0 : (after.map { $0.value - (before[$0.key] ?? 0) }.max() ?? 0)) on the busiest"
)

daemon.terminate()
daemon.waitUntilExit()
try? FileManager.default.removeItem(atPath: folder)
// The daemon leaves its (empty) control groups; the benchmark's go with it.
for root in ["/sys/fs/cgroup/unified", "/sys/fs/cgroup", "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/freezer"] {
    let base = "\(root)/\(cgroupName)"
    for app in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where app.hasPrefix("bench.app") {
        rmdir("\(base)/\(app)")
    }
    rmdir(base)
}

public import OffstageCore

/// A value a client sent that the daemon does not act on: which message, which field, the value and the range.
/// The daemon answers it as an error with the message's id and goes on serving.
public struct InputError: Error, CustomStringConvertible, Sendable {
    public var description: String

    init(_ what: String, _ field: String, _ problem: String) {
        description = "\(what): field '\(field)': \(problem)"
    }
}

/// The ranges of what clients send (docs/protocol.md, "Limits"): every number from outside is checked here, at the
/// edge, before the core sees it, so that no arithmetic in the core meets a value a client chose to make it trap.
public enum InputLimits {
    /// Seconds since 1970 a date may be: ±1e11 s, beyond `Date.distantPast` and `Date.distantFuture` (±6.3e10 s).
    public static let dateRange: ClosedRange<Double> = -1e11...1e11
    /// Seconds one work report or measured usage may cover or count: a day.
    public static let reportSeconds: ClosedRange<Double> = 0...86_400
    /// Bytes one work report may count: 1 TiB.
    public static let reportBytes: ClosedRange<Int> = 0...(1 << 40)
    /// The longest `setMinimumBackgroundFetchInterval(_:)` kept as asked (100 years); longer ones are this.
    public static let longestFetchInterval: Double = 100 * 365 * 86_400
    /// Bytes of a task identifier, a background-task name, a region, a control's action.
    public static let nameBytes = 256
    /// Bytes of a continued-processing task's title or subtitle.
    public static let titleBytes = 1024
    /// Bytes of a background push's payload: APNs' limit for a notification (4 KB).
    public static let pushPayloadBytes = 4096
    /// Bytes of an absolute path (`PATH_MAX`).
    public static let pathBytes = 4096
}

extension ClientMessage {
    /// This message with every number and name checked (the fetch interval saturated at 100 years, as iOS keeps
    /// any interval), or the first value out of range.
    public func validated() throws(InputError) -> ClientMessage {
        switch body {
        case .call(let call, let bundle):
            if let bundle { try BundleID.check(bundle.rawValue, in: "call", field: "bundle") }
            return ClientMessage(id: id, body: .call(call: try call.validated(), bundle: bundle))
        case .work(let report):
            try report.check()
            return self
        case .control(let command):
            try command.check()
            return self
        }
    }
}

extension AppCall {
    /// The call with its numbers and names in range; see `ClientMessage.validated()`.
    func validated() throws(InputError) -> AppCall {
        switch self {
        case .register(let identifier), .cancel(let identifier), .simulateLaunch(let identifier),
            .simulateExpiration(let identifier), .setRegionMonitoring(let identifier, _):
            try check(name: identifier, field: "identifier")
        case .submit(let request):
            try check(name: request.identifier, field: "identifier")
            try check(title: request.title, field: "title")
            try check(title: request.subtitle, field: "subtitle")
            if let protection = request.protectionTypeOfRequiredData {
                try check(name: protection, field: "protectionTypeOfRequiredData")
            }
            if let date = request.earliestBeginDate {
                try check(date, in: InputLimits.dateRange, field: "earliestBeginDate", unit: "seconds since 1970")
            }
        case .beginBackgroundTask(let name?):
            try check(name: name, field: "name")
        case .beginExpiringActivity(let reason):
            try check(name: reason, field: "reason")
        case .workBegan(_, let cpuSeconds, let seconds):
            try check(cpuSeconds, in: 0...InputLimits.longestFetchInterval, field: "cpuSeconds", unit: "seconds")
            try check(seconds, in: 0...InputLimits.longestFetchInterval, field: "seconds", unit: "seconds")
        case .updateTitle(_, let title, let subtitle):
            try check(title: title, field: "title")
            try check(title: subtitle, field: "subtitle")
        case .setMinimumBackgroundFetchInterval(let interval?):
            try check(interval, in: 0...Double.infinity, field: "_0", unit: "seconds")
            return .setMinimumBackgroundFetchInterval(min(interval, InputLimits.longestFetchInterval))
        default: break
        }
        return self
    }

    private var callName: String { String(describing: self).prefix { $0 != "(" }.description }

    private func check(name text: String, field: String) throws(InputError) {
        try checkLength(text, InputLimits.nameBytes, what: "call '\(callName)'", field: field)
    }

    private func check(title text: String, field: String) throws(InputError) {
        try checkLength(text, InputLimits.titleBytes, what: "call '\(callName)'", field: field)
    }

    private func check(_ value: Double, in range: ClosedRange<Double>, field: String, unit: String) throws(InputError) {
        try checkNumber(value, in: range, what: "call '\(callName)'", field: field, unit: unit)
    }
}

extension WorkReport {
    /// Every count finite, not negative and within one report's bounds.
    func check() throws(InputError) {
        for (field, value) in [("cpuSeconds", cpuSeconds), ("gpuSeconds", gpuSeconds), ("seconds", seconds)] {
            try checkNumber(value, in: InputLimits.reportSeconds, what: "work report", field: field, unit: "seconds")
        }
        try checkCount(bytes, in: InputLimits.reportBytes, what: "work report", field: "bytes")
    }
}

extension ControlCommand {
    /// Every number and name of the command in range.
    func check() throws(InputError) {
        switch self {
        case .install(let path):
            try checkLength(path, InputLimits.pathBytes, what: "install", field: "path")
        case .event(let event):
            try event.check()
        case .tap(let bundle, let action):
            try BundleID.check(bundle.rawValue, in: "tap", field: "bundle")
            try checkLength(action, InputLimits.nameBytes, what: "tap", field: "action")
        case .device(let overrides, _):
            if let level = overrides.batteryLevel {
                try checkNumber(level, in: 0...1, what: "device", field: "batteryLevel", unit: "fraction")
            }
            if let bytes = overrides.memoryPressureBytes {
                try checkCount(bytes, in: 0...Int.max, what: "device", field: "memoryPressureBytes")
            }
        case .why(let bundle?, _):
            try BundleID.check(bundle.rawValue, in: "why", field: "bundle")
        case .why(nil, _), .apps, .tasks, .status, .progress: break
        }
    }
}

extension SystemEvent {
    /// Every number and name of the event in range (the user's and the debugger's events, from `ctl`).
    func check() throws(InputError) {
        // Named only for an error: `String(describing:)` walks the value by reflection, a twentieth of the
        // daemon's time when it was worked out for every event.
        var what: String { "event '\(String(describing: self).prefix { $0 != "(" })'" }
        if let app { try BundleID.check(app.rawValue, in: what, field: "_0") }
        switch self {
        case .setBattery(let level, _):
            try checkNumber(level, in: 0...1, what: what, field: "level", unit: "fraction")
        case .memoryPressure(let bytes), .setMemoryFootprint(_, let bytes):
            try checkCount(bytes, in: 0...Int.max, what: what, field: "bytes")
        case .setWallClock(let clock):
            try checkNumber(
                clock.epochAtZero, in: InputLimits.dateRange, what: what, field: "epochAtZero", unit: "seconds")
            try checkNumber(clock.utcOffset, in: -86_400...86_400, what: what, field: "utcOffset", unit: "seconds")
        case .resourceUsage(_, let usage):
            for (field, value) in [
                ("cpuSeconds", usage.cpuSeconds), ("gpuSeconds", usage.gpuSeconds), ("interval", usage.interval),
            ] {
                try checkNumber(value, in: InputLimits.reportSeconds, what: what, field: field, unit: "seconds")
            }
            try checkCount(usage.wifiBytes, in: InputLimits.reportBytes, what: what, field: "wifiBytes")
            try checkCount(usage.cellularBytes, in: InputLimits.reportBytes, what: what, field: "cellularBytes")
        case .backgroundPush(_, let payload):
            try checkLength(payload, InputLimits.pushPayloadBytes, what: what, field: "payload")
        case .simulateLaunch(_, let identifier), .simulateExpiration(_, let identifier),
            .cancelContinuedProcessingTask(_, let identifier), .answerContinuedProcessingQuestion(_, let identifier, _):
            try checkLength(identifier, InputLimits.nameBytes, what: what, field: "identifier")
        case .locationEvent(_, let location):
            if let region = location.region {
                try checkLength(region, InputLimits.nameBytes, what: what, field: "region")
            }
        default: break
        }
    }
}

extension BundleID {
    /// Whether `text` is a bundle identifier by Apple's rules (`CFBundleIdentifier`): only letters A–Z and a–z,
    /// digits, hyphens and periods, in reverse-DNS form (at least two non-empty parts: no `..`, no leading or
    /// trailing period), at most 255 bytes. Paths are built only from identifiers that pass.
    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        guard (3...255).contains(bytes.count) else { return false }
        var parts = 1
        var previous: UInt8 = UInt8(ascii: ".")
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                break
            case UInt8(ascii: "."):
                guard previous != UInt8(ascii: ".") else { return false }
                parts += 1
            default: return false
            }
            previous = byte
        }
        return previous != UInt8(ascii: ".") && parts >= 2
    }

    /// Throws unless `text` is a valid bundle identifier (`isValid`).
    public static func check(_ text: String, in what: @autoclosure () -> String, field: String) throws(InputError) {
        guard !isValid(text) else { return }
        throw InputError(
            what(), field,
            "\(quoted(text)) is not a bundle identifier (reverse-DNS: letters, digits, hyphens and periods, "
                + "as in com.example.App)")
    }
}

/// Throws unless `value` is a finite number within `range`.
func checkNumber(
    _ value: Double, in range: ClosedRange<Double>, what: @autoclosure () -> String, field: String, unit: String
) throws(InputError) {
    guard !range.contains(value) else { return }
    let bounds = "\(range.lowerBound)…\(range.upperBound == .infinity ? "" : "\(range.upperBound)")"
    throw InputError(what(), field, "\(value) is out of range (\(unit), \(bounds))")
}

/// Throws unless `value` is within `range`.
func checkCount(_ value: Int, in range: ClosedRange<Int>, what: @autoclosure () -> String, field: String)
    throws(InputError)
{
    guard !range.contains(value) else { return }
    throw InputError(what(), field, "\(value) is out of range (\(range.lowerBound)…\(range.upperBound))")
}

/// Throws when `text` is longer than `limit` UTF-8 bytes.
func checkLength(_ text: String, _ limit: Int, what: @autoclosure () -> String, field: String) throws(InputError) {
    guard text.utf8.count > limit else { return }
    throw InputError(what(), field, "\(text.utf8.count) bytes, longer than the limit of \(limit)")
}

/// `text` in quotes, cut to 40 characters: errors show what was sent without echoing a huge value.
private func quoted(_ text: String) -> String {
    "'\(text.count > 40 ? text.prefix(40) + "…" : text)'"
}

public import OffstageCore

/// A command of the timeline language that could not be parsed, saying what was expected.
/// The scenario loader adds the file, line and field; a CLI prints it as it is.
public struct UserCommandError: Error, CustomStringConvertible, Hashable, Sendable {
    /// What is wrong, and what was expected instead.
    public var message: String

    /// Makes an error from its message.
    /// Only `UserCommand.parse` needs to, but hosts that wrap it may too.
    public init(message: String) { self.message = message }

    /// The message as it is.
    /// It names no file: the caller knows where the command came from.
    public var description: String { message }
}

/// The timeline's tiny command language: a verb and its arguments separated by spaces, like `open com.x`.
/// One command gives one `UserAction`; the scenario loader uses it for `do:`, a CLI for typed commands.
public enum UserCommand {
    /// Every command with its arguments (`APP` is a bundle identifier), in the order help lists them.
    /// Error messages quote these lines.
    public static let usage: [String] = [
        "open APP", "home", "lock", "unlock", "screen-on", "notification APP", "tap-notification APP [ID]", "switcher",
        "swipe APP", "interrupt",
        "interrupt-end take|dismiss",
        "battery LEVEL", "plug", "unplug", "network wifi|cellular|none",
        "thermal nominal|fair|serious|critical",
        "low-power on|off", "low-data on|off", "background-refresh on|off [APP]",
        "background-refresh-restricted on|off",
        "continued-processing on|off APP", "memory-pressure SIZE", "memory APP SIZE",
        "simulate-launch APP ID",
        "simulate-expiration APP ID", "tap APP ACTION",
        // Continued processing: the user in the system's progress UI.
        "cancel-task APP ID", "answer APP ID continue|stop",
        "push APP [PAYLOAD]", "location APP [enter|exit REGION]",
    ]

    /// Parses one command, given the device as it is when the command runs.
    /// `battery` keeps `device.isCharging`; `plug`/`unplug` only move the charger, so that a simulated battery
    /// goes on from the level it has reached.
    public static func parse(_ text: String, device: DeviceState) throws(UserCommandError)
        -> UserAction
    {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline }).map(
            String.init)
        guard let verb = words.first else {
            throw UserCommandError(message: "empty command; expected one of: \(verbs)")
        }
        guard let usage = usage.first(where: { $0 == verb || $0.hasPrefix(verb + " ") }) else {
            throw UserCommandError(message: "unknown command '\(verb)'; expected one of: \(verbs)")
        }
        let command = Command(usage: usage, arguments: Array(words.dropFirst()))
        switch verb {
        case "open": return .system(.open(try command.app(0)))
        case "home": return .system(try command.none(.home))
        case "lock": return .system(try command.none(.lock))
        case "unlock": return .system(try command.none(.unlock))
        case "screen-on": return .system(try command.none(.screenOn))
        case "notification": return .system(.notificationShown(try command.app(0)))
        case "tap-notification":
            let app = try command.app(0)
            return .system(
                .notificationTapped(app, identifier: command.arguments.count > 1 ? command.arguments[1] : nil))
        case "switcher": return .system(try command.none(.openSwitcher))
        case "swipe": return .system(.swipeAway(try command.app(0)))
        case "interrupt": return .system(try command.none(.interruptionBegan))
        case "interrupt-end":
            return .system(
                .interruptionEnded(accepted: try command.choice(0, [("take", true), ("dismiss", false)])))
        case "battery":
            let text = try command.word(0)
            guard let level = Quantities.fraction(text) else {
                throw command.expected(Quantities.fractionHint, text)
            }
            return .system(.setBattery(level: level, charging: device.isCharging))
        case "plug":
            return .system(try command.none(.setCharging(true)))
        case "unplug":
            return .system(try command.none(.setCharging(false)))
        case "network":
            let kinds = NetworkKind.allCases.map { ($0.rawValue, $0) }
            return .system(.setNetwork(try command.choice(0, kinds)))
        case "thermal":
            let states = ThermalState.allCases.map { ($0.rawValue, $0) }
            return .system(.setThermalState(try command.choice(0, states)))
        case "low-power": return .system(.setLowPowerMode(try command.onOff(0)))
        case "low-data": return .system(.setLowDataMode(try command.onOff(0)))
        case "background-refresh":
            let enabled = try command.onOff(0, allowing: 1...2)
            if command.arguments.count == 2 {
                return .system(.setAppBackgroundAppRefresh(try command.app(1), enabled))
            }
            return .system(.setBackgroundAppRefresh(enabled))
        case "background-refresh-restricted":
            return .system(.setBackgroundAppRefreshRestricted(try command.onOff(0)))
        case "continued-processing":
            let enabled = try command.onOff(0)
            return .system(.setContinuedProcessing(try command.app(1), enabled))
        case "memory-pressure": return .system(.memoryPressure(bytes: try command.size(0)))
        case "memory":
            let app = try command.app(0)
            return .system(.setMemoryFootprint(app, bytes: try command.size(1)))
        case "simulate-launch":
            let app = try command.app(0)
            return .system(.simulateLaunch(app, identifier: try command.word(1)))
        case "simulate-expiration":
            let app = try command.app(0)
            return .system(.simulateExpiration(app, identifier: try command.word(1)))
        case "tap":
            let app = try command.app(0)
            return .tap(app, action: try command.word(1))
        case "cancel-task":
            let app = try command.app(0)
            return .system(.cancelContinuedProcessingTask(app, identifier: try command.word(1)))
        case "answer":
            let app = try command.app(0)
            let answers = SlowTaskAnswer.allCases.map { ($0.rawValue, $0) }
            return .system(
                .answerContinuedProcessingQuestion(
                    app, identifier: try command.word(1), answer: try command.choice(2, answers)))
        case "push":
            let app = try command.app(0)
            return .system(.backgroundPush(app, payload: command.arguments.count > 1 ? command.arguments[1] : ""))
        case "location":
            return .system(try command.location())
        default:
            throw UserCommandError(message: "unknown command '\(verb)'; expected one of: \(verbs)")
        }
    }

    /// The verbs alone, comma-separated, for "expected one of" messages.
    private static var verbs: String {
        usage.map { String($0.prefix { $0 != " " }) }.joined(separator: ", ")
    }

    /// The arguments of one command, read against its usage line.
    private struct Command {
        let usage: String
        let arguments: [String]

        var verb: String { String(usage.prefix { $0 != " " }) }

        /// The number of arguments the usage line asks for: required ones, and optional `[…]` ones.
        var arity: ClosedRange<Int> {
            let parts = usage.split(separator: " ").dropFirst()
            let required = parts.filter { !$0.hasPrefix("[") }.count
            return required...parts.count
        }

        /// Checks the number of arguments against the usage line, or against `allowed` when given.
        func checkCount(_ allowed: ClosedRange<Int>? = nil) throws(UserCommandError) {
            let allowed = allowed ?? arity
            guard !allowed.contains(arguments.count) else { return }
            let wanted: String
            switch (allowed.lowerBound, allowed.upperBound) {
            case (0, 0): wanted = "takes no arguments"
            case (let low, let high) where low == high:
                wanted = "takes \(low) argument\(low == 1 ? "" : "s")"
            case (let low, let high): wanted = "takes \(low) to \(high) arguments"
            }
            throw UserCommandError(
                message: "'\(verb)' \(wanted), got \(arguments.count): expected \"\(usage)\"")
        }

        /// The command when it takes no arguments.
        func none(_ event: SystemEvent) throws(UserCommandError) -> SystemEvent {
            try checkCount()
            return event
        }

        /// Argument `index`, after checking the count.
        func word(_ index: Int) throws(UserCommandError) -> String {
            try checkCount()
            return arguments[index]
        }

        func app(_ index: Int) throws(UserCommandError) -> BundleID {
            BundleID(try word(index))
        }

        func size(_ index: Int) throws(UserCommandError) -> Int {
            let text = try word(index)
            guard let bytes = Quantities.bytes(text) else { throw expected(Quantities.sizeHint, text) }
            return bytes
        }

        func onOff(_ index: Int, allowing allowed: ClosedRange<Int>? = nil) throws(UserCommandError)
            -> Bool
        {
            try checkCount(allowed)
            return try choice(index, [("on", true), ("off", false)], checked: true)
        }

        /// Argument `index`, which must be one of the `options`' names.
        func choice<Value>(_ index: Int, _ options: [(String, Value)], checked: Bool = false)
            throws(UserCommandError)
            -> Value
        {
            if !checked { try checkCount() }
            let text = arguments[index]
            if let match = options.first(where: { $0.0 == text }) { return match.1 }
            var names = options.map(\.0)
            let last = names.removeLast()
            throw expected(names.joined(separator: ", ") + " or " + last, text)
        }

        /// `location APP` (a significant change) or `location APP enter|exit REGION` (a region crossing).
        func location() throws(UserCommandError) -> SystemEvent {
            guard arguments.count == 1 || arguments.count == 3 else {
                throw UserCommandError(
                    message: "'\(verb)' takes 1 or 3 arguments, got \(arguments.count): expected \"\(usage)\"")
            }
            let app = BundleID(arguments[0])
            guard arguments.count == 3 else { return .locationEvent(app, .significantChange) }
            let region = arguments[2]
            let crossing = try choice(
                1, [("enter", LocationEvent.enteredRegion(region)), ("exit", .exitedRegion(region))], checked: true)
            return .locationEvent(app, crossing)
        }

        /// "'battery' expects a percentage like 80%…, got "lots"".
        func expected(_ what: String, _ text: String) -> UserCommandError {
            UserCommandError(message: "'\(verb)' expects \(what), got \"\(text)\"")
        }
    }
}

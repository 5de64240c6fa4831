import OffstageCore
import Testing

@testable import OffstageSimulator

/// The timeline's command language: every verb, and the messages for what it rejects.
@Suite struct UserCommandTests {
    static let device = DeviceState()

    static let verbs: [(String, UserAction)] = [
        ("open com.x", .system(.open("com.x"))),
        ("home", .system(.home)),
        ("lock", .system(.lock)),
        ("unlock", .system(.unlock)),
        ("screen-on", .system(.screenOn)),
        ("notification com.x", .system(.notificationShown("com.x"))),
        ("tap-notification com.x", .system(.notificationTapped("com.x", identifier: nil))),
        ("switcher", .system(.openSwitcher)),
        ("swipe com.x", .system(.swipeAway("com.x"))),
        ("interrupt", .system(.interruptionBegan)),
        ("interrupt-end take", .system(.interruptionEnded(accepted: true))),
        ("interrupt-end dismiss", .system(.interruptionEnded(accepted: false))),
        ("battery 15%", .system(.setBattery(level: 0.15, charging: false))),
        ("battery 0.5", .system(.setBattery(level: 0.5, charging: false))),
        ("plug", .system(.setCharging(true))),
        ("unplug", .system(.setCharging(false))),
        ("network cellular", .system(.setNetwork(.cellular))),
        ("network none", .system(.setNetwork(.none))),
        ("thermal serious", .system(.setThermalState(.serious))),
        ("low-power on", .system(.setLowPowerMode(true))),
        ("low-data off", .system(.setLowDataMode(false))),
        ("background-refresh off", .system(.setBackgroundAppRefresh(false))),
        ("background-refresh off com.x", .system(.setAppBackgroundAppRefresh("com.x", false))),
        ("background-refresh-restricted on", .system(.setBackgroundAppRefreshRestricted(true))),
        ("continued-processing off com.x", .system(.setContinuedProcessing("com.x", false))),
        ("memory-pressure 200MB", .system(.memoryPressure(bytes: 200_000_000))),
        ("memory com.x 120MB", .system(.setMemoryFootprint("com.x", bytes: 120_000_000))),
        (
            "simulate-launch com.x com.x.refresh",
            .system(.simulateLaunch("com.x", identifier: "com.x.refresh"))
        ),
        (
            "simulate-expiration com.x com.x.refresh",
            .system(.simulateExpiration("com.x", identifier: "com.x.refresh"))
        ),
        ("tap com.x export", .tap("com.x", action: "export")),
        ("push com.x", .system(.backgroundPush("com.x", payload: ""))),
        ("push com.x news-42", .system(.backgroundPush("com.x", payload: "news-42"))),
        ("location com.x", .system(.locationEvent("com.x", .significantChange))),
        ("location com.x enter home", .system(.locationEvent("com.x", .enteredRegion("home")))),
        ("location com.x exit home", .system(.locationEvent("com.x", .exitedRegion("home")))),
        ("  open \t com.x  ", .system(.open("com.x"))),
        (
            "cancel-task com.x com.x.export.1",
            .system(.cancelContinuedProcessingTask("com.x", identifier: "com.x.export.1"))
        ),
        (
            "answer com.x com.x.export.1 continue",
            .system(.answerContinuedProcessingQuestion("com.x", identifier: "com.x.export.1", answer: .proceed))
        ),
        (
            "answer com.x com.x.export.1 stop",
            .system(.answerContinuedProcessingQuestion("com.x", identifier: "com.x.export.1", answer: .stop))
        ),
    ]

    @Test(arguments: verbs)
    func everyVerbParsesToItsAction(text: String, action: UserAction) throws {
        #expect(try UserCommand.parse(text, device: Self.device) == action)
    }

    @Test func everyUsageLineHasAVerbThatParses() {
        let parsedVerbs = Set(Self.verbs.map { String($0.0.split(separator: " ")[0]) })
        let listedVerbs = Set(UserCommand.usage.map { String($0.split(separator: " ")[0]) })
        #expect(parsedVerbs == listedVerbs)
    }

    @Test func batteryKeepsTheChargingStateOfTheDevice() throws {
        var device = DeviceState()
        device.isCharging = true
        #expect(
            try UserCommand.parse("battery 15%", device: device)
                == .system(.setBattery(level: 0.15, charging: true)))
    }

    @Test func plugAndUnplugOnlyMoveTheCharger() throws {
        var device = DeviceState()
        device.batteryLevel = 0.33
        #expect(try UserCommand.parse("plug", device: device) == .system(.setCharging(true)))
        #expect(try UserCommand.parse("unplug", device: device) == .system(.setCharging(false)))
    }

    @Test func unknownVerbListsEveryVerb() {
        #expect(
            message(of: "opn com.x")
                == "unknown command 'opn'; expected one of: open, home, lock, unlock, screen-on, notification, "
                + "tap-notification, switcher, swipe, interrupt, "
                + "interrupt-end, battery, plug, unplug, network, thermal, low-power, low-data, background-refresh, "
                + "background-refresh-restricted, continued-processing, memory-pressure, memory, simulate-launch, "
                + "simulate-expiration, tap, cancel-task, answer, push, location")
    }

    @Test func cancelTaskAndAnswerSayWhatWasExpected() {
        #expect(
            message(of: "cancel-task com.x")
                == "'cancel-task' takes 2 arguments, got 1: expected \"cancel-task APP ID\"")
        #expect(
            message(of: "answer com.x com.x.export.1")
                == "'answer' takes 3 arguments, got 2: expected \"answer APP ID continue|stop\"")
        #expect(
            message(of: "answer com.x com.x.export.1 maybe") == "'answer' expects continue or stop, got \"maybe\"")
    }

    @Test func badLocationArgumentsQuoteTheUsage() {
        #expect(
            message(of: "location com.x enter")
                == "'location' takes 1 or 3 arguments, got 2: expected \"location APP [enter|exit REGION]\"")
        #expect(message(of: "location com.x cross home") == "'location' expects enter or exit, got \"cross\"")
        #expect(
            message(of: "push com.x a b") == "'push' takes 1 to 2 arguments, got 3: expected \"push APP [PAYLOAD]\"")
    }

    @Test func emptyCommandListsEveryVerb() {
        #expect(message(of: "   ").hasPrefix("empty command; expected one of: open, home, lock"))
    }

    @Test func missingArgumentQuotesTheUsage() {
        #expect(message(of: "open") == "'open' takes 1 argument, got 0: expected \"open APP\"")
        #expect(
            message(of: "tap com.x") == "'tap' takes 2 arguments, got 1: expected \"tap APP ACTION\"")
    }

    @Test func extraArgumentsAreRejected() {
        #expect(message(of: "home now") == "'home' takes no arguments, got 1: expected \"home\"")
        #expect(
            message(of: "background-refresh on com.x com.y")
                == "'background-refresh' takes 1 to 2 arguments, got 3: expected \"background-refresh on|off [APP]\""
        )
    }

    @Test func wrongChoiceSaysWhatWasExpected() {
        #expect(message(of: "network wlan") == "'network' expects none, wifi or cellular, got \"wlan\"")
        #expect(
            message(of: "thermal hot")
                == "'thermal' expects nominal, fair, serious or critical, got \"hot\"")
        #expect(message(of: "low-power yes") == "'low-power' expects on or off, got \"yes\"")
        #expect(
            message(of: "interrupt-end maybe") == "'interrupt-end' expects take or dismiss, got \"maybe\""
        )
    }

    @Test func badQuantitiesSayWhatWasExpected() {
        #expect(
            message(of: "battery 150%")
                == "'battery' expects a percentage like 80% or a fraction from 0 to 1, got \"150%\"")
        #expect(message(of: "memory com.x lots") == "'memory' expects a size like 120MB, got \"lots\"")
        #expect(
            message(of: "memory-pressure -5MB")
                == "'memory-pressure' expects a size like 120MB, got \"-5MB\"")
    }

    @Test func errorDescriptionIsItsMessage() {
        #expect(UserCommandError(message: "no").description == "no")
    }

    private func message(of text: String) -> String {
        do {
            _ = try UserCommand.parse(text, device: Self.device)
            return "no error"
        } catch {
            return error.message
        }
    }
}

import PropertyBased
import Testing

@testable import OffstageCore

/// Invariants of background pushes over random sequences of pushes, settings, charging and the user:
/// checked against an oracle written here, not the core's own blockers.
@Suite struct PushPropertyTests {
    static let steps = Gen.int(in: 0...Int(Int32.max)).array(of: 10...120).map { $0.map(PushStep.init(seed:)) }

    @Test func noBackgroundPushIsDeliveredWhileForbiddenOrOverTheRateLimit() async {
        await propertyCheck(count: 300, input: Self.steps) { steps in
            let run = PushRun(steps: steps)
            #expect(run.violations == [], "\(steps)")
        }
    }
}

/// One thing that happens to the two apps or the device.
enum PushStep: Hashable, Sendable {
    case push(Int)
    case advance(seconds: Double)
    case backgroundAppRefresh(Bool)
    case lowPower(Bool)
    case charging(Bool)
    case open(Int)
    case home
    case swipe(Int)

    init(seed: Int) {
        let apps = seed / 16 % 2
        switch seed % 16 {
        case 0...4: self = .push(apps)
        case 5...8: self = .advance(seconds: [5, 60, 600, 1800][seed / 32 % 4])
        case 9: self = .backgroundAppRefresh(seed / 32 % 3 != 0)
        case 10: self = .lowPower(seed / 32 % 3 == 0)
        case 11: self = .charging(seed / 32 % 2 == 0)
        case 12, 13: self = .open(apps)
        case 14: self = .home
        default: self = .swipe(apps)
        }
    }
}

/// Runs one sequence on two apps with `remote-notification` and checks every delivery as it happens.
struct PushRun {
    static let apps: [BundleID] = [Fixture.feed, Fixture.mail]
    private(set) var harness = CoreHarness(
        apps: apps.map { Fixture.manifest($0, modes: [.fetch, .processing, .remoteNotification]) })
    private(set) var violations: [String] = []
    private var barOn = true
    private var lowPower = false
    private var charging = false
    private var forceQuit: Set<BundleID> = []
    private var arrived: Set<String> = []
    private var delivered: Set<String> = []
    private var backgroundDeliveries: [BundleID: [Instant]] = [:]
    private var counter = 0

    init(steps: [PushStep]) {
        for step in steps { perform(step) }
        perform(.advance(seconds: 7200))
    }

    private mutating func perform(_ step: PushStep) {
        let start = harness.log.count
        switch step {
        case .push(let n):
            counter += 1
            let payload = "p\(counter)"
            arrived.insert(payload)
            harness.handle(.backgroundPush(Self.apps[n], payload: payload))
        case .advance(let seconds): harness.advance(by: seconds)
        case .backgroundAppRefresh(let on):
            barOn = on
            harness.handle(.setBackgroundAppRefresh(on))
        case .lowPower(let on):
            lowPower = on
            harness.handle(.setLowPowerMode(on))
        case .charging(let on):
            charging = on
            if on { lowPower = false }  // at 80 % on the charger iOS turns Low Power Mode off; plugging in alone does not
            harness.handle(.setBattery(level: 0.8, charging: on))
        case .open(let n):
            forceQuit.remove(Self.apps[n])
            harness.handle(.open(Self.apps[n]))
        case .home: harness.handle(.home)
        case .swipe(let n):
            guard harness.system.switcher.contains(Self.apps[n]) else { return }
            forceQuit.insert(Self.apps[n])
            harness.handle(.swipeAway(Self.apps[n]))
        }
        check(from: start, after: step)
    }

    private mutating func check(from start: Int, after step: PushStep) {
        for index in start..<harness.log.count {
            guard case .deliverBackgroundEvent(let app, .remoteNotification(let payload), _) = harness.log[index]
            else { continue }
            let time = harness.times[index]
            if !arrived.contains(payload) || !delivered.insert(payload).inserted {
                violations.append("\(payload) delivered twice or never sent, after \(step)")
            }
            guard harness.system.foregroundApp != app else { continue }
            if !barOn { violations.append("\(payload) delivered with Background App Refresh off") }
            if lowPower { violations.append("\(payload) delivered in Low Power Mode") }
            if forceQuit.contains(app) { violations.append("\(payload) delivered after a force-quit") }
            let window = backgroundDeliveries[app, default: []].filter { time - $0 < 3600 }
            if window.count >= 3 { violations.append("\(payload) is the 4th background push within an hour") }
            backgroundDeliveries[app, default: []].append(time)
        }
    }
}

import PropertyBased
import Testing

@testable import OffstageCore

/// SPEC §5 coalescing with §7: a background push or a legacy fetch that the system runs while the device
/// sleeps wakes it as a task run does (a counted, charged, recorded maintenance wake), and work waiting for
/// a wake rides along with it.
@Suite struct EventWakeTests {
    let feed = Fixture.feed
    let mail = Fixture.mail

    /// Feed takes pushes; mail is an ordinary app. Both were used and left, then the device was locked.
    func lockedHarness() -> CoreHarness {
        var h = CoreHarness(apps: [
            Fixture.manifest(feed, modes: [.fetch, .processing, .remoteNotification]), Fixture.manifest(mail),
        ])
        for app in [feed, mail] {
            h.open(app)
            h.handle(.home)
        }
        return h
    }

    @Test func backgroundPushToASleepingDeviceIsAMaintenanceWake() {
        var h = lockedHarness()
        h.handle(.lock)
        h.advance(by: 60)
        let before = h.system.energy.totals[.app(feed)]?.background ?? 0
        let effects = h.handle(.backgroundPush(feed, payload: "p1"))
        #expect(h.system.wakeUps == 1)
        #expect(h.system.app(feed).wakeUps == 1)
        #expect(effects.records(.wake).map(\.task) == ["remote-notification"])
        let after = h.system.energy.totals[.app(feed)]?.background ?? 0
        #expect(after - before >= h.system.policy.power.wakeUpJoules)
    }

    @Test func pushWhileTheDeviceIsAwakeIsNoWake() {
        var h = lockedHarness()  // the screen is on
        h.handle(.backgroundPush(feed, payload: "p1"))
        #expect(h.log.backgroundEvents.count == 1)
        #expect(h.system.wakeUps == 0)
        #expect(h.log.records(.wake).isEmpty)
    }

    @Test func legacyFetchWhileTheDeviceSleepsIsAMaintenanceWake() {
        var h = CoreHarness(apps: [AppManifest(bundleIdentifier: feed, backgroundModes: [.fetch])])
        h.open(feed)
        h.call(.setMinimumBackgroundFetchInterval(0), from: feed)
        h.handle(.home)
        h.handle(.lock)
        h.advance(by: 3600)
        let fetches = h.log.backgroundEvents.filter { $0.event == .fetch }.count
        #expect(fetches >= 1)
        #expect(h.system.wakeUps == fetches)
        #expect(h.log.records(.wake).allSatisfy { $0.task == "background-fetch" && $0.app == feed })
    }

    @Test func workWaitingForAWakeRidesAlongWithAPushWake() {
        var h = lockedHarness()
        // Due at 00:03 wall-clock: without the push it would wait for the 00:15 maintenance wake.
        h.submit(Fixture.refreshRequest(mail, earliestBeginDate: 180), from: mail)
        h.handle(.lock)
        h.advance(to: Instant(seconds: 300))
        #expect(h.log.startedTasks.isEmpty)
        #expect(h.system.explain().first { $0.app == mail }?.blockers.map(\.constraint) == ["coalescing"])
        let effects = h.handle(.backgroundPush(feed, payload: "p1"))
        #expect(effects.startedTasks.map(\.app) == [mail])
        #expect(h.system.wakeUps == 1)
        #expect(h.log.records(.wake).map(\.app) == [feed])
    }
}

/// One thing the user, the device, the network or an app does in a random run about wakes.
enum WakeStep: Hashable, Sendable {
    case open(Int)
    case home, lock, unlock
    case plug(Bool)
    case push(Int)
    case submitRefresh(Int, delayMinutes: Int)
    case advance(seconds: Double)

    static let durations: [Double] = [1, 10, 30, 60, 300, 600, 899, 900, 1800, 3600]

    /// Decodes a step from one random number: the low digits choose the kind, the rest its arguments.
    init(seed: Int) {
        var rest = seed / 16
        func take(_ count: Int) -> Int {
            defer { rest /= count }
            return rest % count
        }
        switch seed % 16 {
        case 0...4: self = .advance(seconds: Self.durations[take(Self.durations.count)])
        case 5, 6: self = .open(take(3))
        case 7: self = .home
        case 8, 9: self = .lock
        case 10: self = .unlock
        case 11: self = .plug(take(4) == 0)
        case 12, 13: self = .push(take(3))
        default: self = .submitRefresh(take(3), delayMinutes: [0, 5, 20][take(3)])
        }
    }
}

/// Random runs of three apps (one taking pushes, one fetching, one refreshing) and a per-event oracle: what
/// waking the device once for every task start, push and fetch that happens while it sleeps would cost.
struct WakeRun {
    static let apps: [BundleID] = [Fixture.feed, Fixture.mail, Fixture.photos]

    private(set) var harness: CoreHarness
    /// Task starts, pushes and fetches handed over while the screen was off and the device unplugged.
    private(set) var eventsWhileAsleep = 0
    /// Wake records with no start or delivery at their instant for their app and task, described.
    private(set) var unexplainedWakes: [String] = []
    private var screenOn = true
    private var charging = false

    init(steps: [WakeStep]) {
        harness = CoreHarness(apps: [
            Fixture.manifest(Fixture.feed, modes: [.fetch, .processing, .remoteNotification]),
            AppManifest(bundleIdentifier: Fixture.mail, backgroundModes: [.fetch, .remoteNotification]),
            Fixture.manifest(Fixture.photos),
        ])
        harness.open(Fixture.mail)
        harness.call(.setMinimumBackgroundFetchInterval(0), from: Fixture.mail)
        harness.handle(.home)
        for step in steps { perform(step) }
        perform(.advance(seconds: 3600))
    }

    /// A task start the scheduler made (not a simulated launch), or a push or fetch handed to an app.
    static func isWakeWorthy(_ record: Record) -> Bool {
        switch record.kind {
        case .started:
            if case .started(_, .simulatedLaunch) = record.detail { return false }
            return true
        case .delivered: return record.task == "remote-notification" || record.task == "background-fetch"
        default: return false
        }
    }

    private mutating func perform(_ step: WakeStep) {
        let start = harness.log.count
        switch step {
        case .open(let n):
            screenOn = true
            harness.open(Self.apps[n])
        case .home: harness.handle(.home)
        case .lock:
            screenOn = false
            harness.handle(.lock)
        case .unlock:
            screenOn = true
            harness.handle(.unlock)
        case .plug(let on):
            charging = on
            harness.handle(.setCharging(on))
        case .push(let n): harness.handle(.backgroundPush(Self.apps[n], payload: "p"))
        case .submitRefresh(let n, let delay):
            let app = Self.apps[n == 1 ? 0 : n]
            let state = harness.state(of: app)
            guard state != .notRunning && state != .suspended else { break }
            harness.submit(
                Fixture.refreshRequest(app, earliestBeginDate: harness.now.seconds + Double(delay * 60)), from: app)
        case .advance(let seconds): harness.advance(by: seconds)
        }
        let records = Array(harness.log[start...]).records
        let served = records.filter(Self.isWakeWorthy)
        if !screenOn && !charging { eventsWhileAsleep += served.count }
        for wake in records where wake.kind == .wake {
            let explained = served.contains { $0.at == wake.at && $0.app == wake.app && $0.task == wake.task }
            if !explained { unexplainedWakes.append("after \(step): \(wake)") }
        }
    }
}

/// The coalescing invariant with pushes and fetches: the device never wakes more often than it would waking
/// once for every task, push and fetch run while it sleeps, and every wake serves one of them.
@Suite struct EventWakePropertyTests {
    static let steps = Gen.int(in: 0...Int(Int32.max)).array(of: 10...60).map { $0.map(WakeStep.init(seed:)) }

    @Test func wakeUpsNeverExceedWhatAPerEventScheduleWouldUse() async {
        await propertyCheck(count: 200, input: Self.steps) { steps in
            let run = WakeRun(steps: steps)
            #expect(run.harness.system.wakeUps <= run.eventsWhileAsleep, "\(steps)")
            #expect(run.unexplainedWakes == [], "\(steps)")
        }
    }
}

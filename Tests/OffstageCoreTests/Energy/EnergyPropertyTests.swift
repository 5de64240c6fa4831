import PropertyBased
import Testing

@testable import OffstageCore

/// The energy invariant of §9 over random runs: with a simulated battery, the joules the ledger charges while
/// the device is off the charger are exactly what the battery lost (until it is empty, when nothing is left
/// to lose), and the level stays within 0–100 %.
@Suite struct EnergyPropertyTests {
    static let steps = Gen.int(in: 0...Int(Int32.max)).array(of: 5...60).map { $0.map(EnergyStep.init(seed:)) }

    @Test func ledgerAddsUpToTheBatterysDrop() async {
        await propertyCheck(count: 300, input: Self.steps) { steps in
            let run = EnergyRun(steps: steps)
            #expect(run.violations == [], "\(steps)")
        }
    }
}

/// One thing the user, the device, an app or the scheduler does that costs (or stores) energy.
enum EnergyStep: Hashable, Sendable {
    case open(Int)
    case home, lock, unlock
    case usage(Int, cpuSeconds: Double, wifiBytes: Int, cellularBytes: Int)
    case wakeUp(Int?)
    case plug(Bool)
    case advance(seconds: Double)

    static let durations: [Double] = [0.5, 3, 9, 10, 11, 60, 600, 3599, 3600, 7200, 36_000]

    /// Decodes a step from one random number: the low digits choose the kind, the rest its arguments.
    init(seed: Int) {
        var rest = seed / 16
        func take(_ count: Int) -> Int {
            defer { rest /= count }
            return rest % count
        }
        func pick<T>(_ values: [T]) -> T { values[take(values.count)] }
        switch seed % 16 {
        case 0...4: self = .advance(seconds: pick(Self.durations))
        case 5, 6: self = .open(take(2))
        case 7: self = .home
        case 8: self = .lock
        case 9: self = .unlock
        case 10...12:
            self = .usage(
                take(2), cpuSeconds: pick([0, 0.5, 30, 20_000]), wifiBytes: pick([0, 1000, 50_000_000]),
                cellularBytes: pick([0, 0, 1000, 20_000_000]))
        case 13: self = .wakeUp(pick([nil, 0, 1]))
        default: self = .plug(take(3) == 0)
        }
    }
}

/// Runs the steps on a system with a simulated battery and checks the battery against the ledger after each.
struct EnergyRun {
    static let apps: [BundleID] = [Fixture.feed, Fixture.mail]

    private(set) var harness: CoreHarness
    private(set) var violations: [String] = []

    init(steps: [EnergyStep]) {
        var device = DeviceState()
        device.simulatesBattery = true
        harness = CoreHarness(device: device, apps: Self.apps.map { Fixture.manifest($0) })
        let capacity = device.battery.capacityJoules
        var level = harness.system.device.batteryLevel
        var joules = harness.system.energy.totalJoules
        for step in steps {
            perform(step)
            let system = harness.system
            let (newLevel, newJoules) = (system.device.batteryLevel, system.energy.totalJoules)
            if newLevel < 0 || newLevel > 1 { violations.append("after \(step): level \(newLevel)") }
            // The energy since the last reading was spent with the charger as it is now: `plug` changes it
            // before anything is charged at its instant, and the other steps do not change it.
            if !system.device.isCharging {
                let drop = (level - newLevel) * capacity
                let spent = newJoules - joules
                let tolerance = 1e-9 * max(1, spent, capacity)
                if newLevel > 0 ? abs(spent - drop) > tolerance : spent < drop - tolerance {
                    violations.append("after \(step): charged \(spent) J, battery lost \(drop) J")
                }
            }
            (level, joules) = (newLevel, newJoules)
        }
    }

    private mutating func perform(_ step: EnergyStep) {
        switch step {
        case .open(let n): harness.handle(.open(Self.apps[n]))
        case .home: harness.handle(.home)
        case .lock: harness.handle(.lock)
        case .unlock: harness.handle(.unlock)
        case .usage(let n, let cpu, let wifi, let cellular):
            harness.handle(
                .resourceUsage(Self.apps[n], ResourceUsage(cpuSeconds: cpu, wifiBytes: wifi, cellularBytes: cellular)))
        case .wakeUp(let n): harness.chargeWakeUp(for: n.map { Self.apps[$0] })
        case .plug(let on): harness.handle(.setCharging(on))
        case .advance(let seconds): harness.advance(by: seconds)
        }
    }
}

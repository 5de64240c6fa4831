import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// §9 from the app's side: work a Swift app says it did reaches the energy ledger, charged to that app.
@Suite struct EnergyKitTests {
    @Test func workAnAppReportsIsChargedToItAsBackgroundWork() throws {
        let app = TestApp(background: { _ in OffstageWork.report(cpuSeconds: 2, bytes: 1_000_000, over: 2) })
        var device = DeviceState()
        device.network = .cellular
        let simulation = try simulation(
            [(manifest("com.a", identifiers: []), app)], timeline: [at(1, .open("com.a")), at(2, .home)],
            duration: 60, device: device)
        simulation.run()
        let power = simulation.system.policy.power
        let energy = simulation.system.energy.totals[.app("com.a")]
        // 2 CPU-seconds, 1 MB over cellular and the radio's tail after it; the screen while it was on screen.
        let background =
            2 * power.cpuWattsPerCore + 1e6 * power.cellularJoulesPerByte
            + power.cellularTailSeconds * power.cellularTailWatts
        #expect(abs((energy?.background ?? 0) - background) < 1e-9)
        #expect(abs((energy?.foreground ?? 0) - power.screenWatts) < 1e-9)
    }
}

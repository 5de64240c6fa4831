/// What each thing a phone does costs in energy (§9): CPU, GPU, network bytes, the cellular radio's tail,
/// wake-ups, the screen and the idle baseline. Defaults are round figures for a current phone, in SI units.
///
/// Sources for the defaults (rounded; a scenario can set any of them under `policy: power:`):
/// - Network: Huang et al., "A Close Examination of Performance and Power Characteristics of 4G LTE
///   Networks" (MobiSys 2012) model a transfer as a base power plus a per-Mbps term: about 1.3 W + 52–438 mW
///   per Mbps on LTE against 0.13 W + 137–283 mW per Mbps on Wi-Fi, i.e. of the order of 1–5 µJ per byte on
///   LTE and 1–2.5 µJ on Wi-Fi at their median throughputs. TailEnder (Balasubramanian et al., IMC 2009,
///   [R5] in `reference/android-linux-anchors.md`) measured 0.025 J/KB on 3G against 0.007 J/KB on Wi-Fi.
///   Cellular costs more per byte here (3 µJ against 1 µJ).
/// - Cellular tail: after the last byte the radio stays in a high-power state until an inactivity timer
///   expires: 12.5 s on 3G in TailEnder, 11.6 s at 1.06 W on LTE in Huang et al.; operators typically set
///   the LTE inactivity timer near 10 s. Default: 10 s at 1 W.
/// - CPU about 1 W per busy performance core, GPU 1.5 W, screen 1 W at moderate brightness (display and
///   the awake system-on-chip), 40 mW asleep (a phone in standby loses about 1 % of 12 Wh in 3 hours),
///   1 J per wake-up (resuming the system-on-chip and a second or two awake).
public struct PowerModel: Hashable, Sendable, Codable {
    /// Watts the device draws asleep with nothing running: charged to the system, always.
    public var baselineWatts: Double = 0.04
    /// Watts the screen (and the awake system-on-chip) draws while it is on: charged to the app on screen.
    public var screenWatts: Double = 1.0
    /// Watts one fully busy CPU core draws, above the baseline.
    public var cpuWattsPerCore: Double = 1.0
    /// Watts the GPU draws while busy.
    public var gpuWatts: Double = 1.5
    /// Joules per byte sent or received over Wi-Fi.
    public var wifiJoulesPerByte: Double = 1.0e-6
    /// Joules per byte sent or received over cellular (more than Wi-Fi).
    public var cellularJoulesPerByte: Double = 3.0e-6
    /// Seconds the cellular radio stays in its high-power state after the last byte (the tail).
    public var cellularTailSeconds: Double = 10
    /// Watts the cellular radio draws during its tail.
    public var cellularTailWatts: Double = 1.0
    /// Joules one wake-up of the device from sleep costs (for the system's own maintenance or a task).
    public var wakeUpJoules: Double = 1.0

    public init() {}

    /// The joules of what a process used (CPU, GPU and the bytes themselves; not the radio's tail,
    /// which depends on what follows and is integrated over time).
    public func joules(of usage: ResourceUsage) -> Double {
        usage.cpuSeconds * cpuWattsPerCore + usage.gpuSeconds * gpuWatts
            + Double(usage.wifiBytes) * wifiJoulesPerByte + Double(usage.cellularBytes) * cellularJoulesPerByte
    }
}

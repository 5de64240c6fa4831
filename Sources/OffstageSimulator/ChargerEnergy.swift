public import OffstageCore

/// Each app's background energy drawn while the device was on the charger, over a run: energy that does not
/// drain the battery, so an evaluation's battery share leaves it out (and shows it apart). Read from the ledger
/// at each plug-in and unplug the simulator sees after a step, so it costs nothing between them.
public struct ChargerEnergy: Sendable {
    /// Background joules drawn on the charger, by app.
    public private(set) var background: [BundleID: Double] = [:]
    /// The ledger's totals when the charger was last plugged in, while it still is.
    private var atPlugIn: [EnergyConsumer: EnergySplit]?

    public init() {}

    /// Takes the device's charger and the ledger after one step. The joules a step charges for the time before
    /// it were drawn as the device was during that time, so a plug-in step's are on the battery and an unplug
    /// step's on the charger.
    mutating func observe(isCharging: Bool, ledger: @autoclosure () -> EnergyLedger) {
        if isCharging, atPlugIn == nil {
            atPlugIn = ledger().totals
        } else if !isCharging, let plugged = atPlugIn {
            addSince(plugged, ledger())
            atPlugIn = nil
        }
    }

    /// Ends the run: a charger still plugged in has its joules counted up to the ledger's end.
    mutating func finish(_ ledger: EnergyLedger) {
        guard let plugged = atPlugIn else { return }
        addSince(plugged, ledger)
        atPlugIn = ledger.totals
    }

    /// Adds each app's background joules charged since `plugged` was taken.
    private mutating func addSince(_ plugged: [EnergyConsumer: EnergySplit], _ ledger: EnergyLedger) {
        for (consumer, split) in ledger.totals {
            guard case .app(let app) = consumer else { continue }
            let drawn = split.background - (plugged[consumer]?.background ?? 0)
            if drawn > 0 { background[app, default: 0] += drawn }
        }
    }
}

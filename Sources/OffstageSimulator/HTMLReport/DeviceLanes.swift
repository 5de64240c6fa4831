import OffstageCore

/// The device's conditions as lanes of stretches — screen and lock, the idle window, the charger, the network,
/// Low Power and Low Data Mode, the thermal state — each named after the constraint that reads it. The HTML
/// report draws them; the trace-event file makes them tracks.
struct DeviceLanes {
    /// One reading per change (`DeviceHistory`).
    let readings: [DeviceHistory.Reading]
    /// The end of the run: the last stretch lasts until then.
    let end: Instant
    /// The policy's idle delay: a locked device counts as idle this long after it was locked.
    let idleDelay: Double

    /// One lane: its label, and what a reading shows on it (a name for the tooltip, a colour, an importance that
    /// wins a shared pixel).
    struct Lane {
        var name: String
        var constraint: String
        var show: (DeviceHistory.Reading, Instant) -> (text: String, color: String, rank: Int)
    }

    var lanes: [Lane] {
        [
            Lane(name: "screen and lock", constraint: "deviceIdle") { reading, _ in
                reading.isScreenOn
                    ? (reading.isLocked
                        ? ("screen on, locked", Palette.Device.screenOnLocked, 1)
                        : ("in use (unlocked)", Palette.Device.inUse, 2))
                    : ("screen off, locked", Palette.Device.off, 0)
            },
            Lane(name: "idle window", constraint: "deviceIdle") { reading, at in
                guard let since = reading.idleSince else { return ("not idle (in use)", Palette.Device.off, 0) }
                return at - since >= idleDelay
                    ? ("idle: processing may run", Palette.Device.idle, 2)
                    : ("locked, not yet idle", Palette.Device.notYetIdle, 1)
            },
            Lane(name: "charger", constraint: "externalPower") { reading, _ in
                reading.isCharging
                    ? ("on the charger", Palette.Device.onCharger, 1) : ("on battery", Palette.Device.off, 0)
            },
            Lane(name: "network", constraint: "network") { reading, _ in
                switch reading.network {
                case .wifi: ("Wi-Fi", Palette.Device.wifi, 1)
                case .cellular: ("cellular", Palette.Device.cellular, 2)
                case .none: ("no network", Palette.Device.noNetwork, 3)
                }
            },
            Lane(name: "Low Power Mode", constraint: "lowPowerMode") { reading, _ in
                reading.lowPowerMode
                    ? ("Low Power Mode on", Palette.Device.lowPowerMode, 1) : ("off", Palette.Device.off, 0)
            },
            Lane(name: "Low Data Mode", constraint: "network") { reading, _ in
                reading.lowDataMode
                    ? ("Low Data Mode on", Palette.Device.lowDataMode, 1) : ("off", Palette.Device.off, 0)
            },
            Lane(name: "thermal state", constraint: "thermal") { reading, _ in
                switch reading.thermal {
                case .nominal: ("nominal", Palette.Device.off, 0)
                case .fair: ("fair", Palette.Device.thermalFair, 1)
                case .serious: ("serious", Palette.Device.thermalSerious, 2)
                case .critical: ("critical", Palette.Device.thermalCritical, 3)
                }
            },
        ]
    }

    /// A stretch of one lane in one look.
    struct Segment {
        var start: Instant
        var end: Instant
        var text: String
        var color: String
        var rank: Int
    }

    /// The lane's stretches from the readings, neighbours with the same look merged; the idle window also changes
    /// where a locked device's idle delay runs out, between readings.
    func segments(of lane: Lane) -> [Segment] {
        var cuts: [(at: Instant, reading: DeviceHistory.Reading)] = []
        for (index, reading) in readings.enumerated() {
            cuts.append((reading.at, reading))
            let next = index + 1 < readings.count ? readings[index + 1].at : end
            if let since = reading.idleSince, since + idleDelay > reading.at, since + idleDelay < next {
                cuts.append((since + idleDelay, reading))
            }
        }
        var segments: [Segment] = []
        for (index, cut) in cuts.enumerated() {
            let end = index + 1 < cuts.count ? cuts[index + 1].at : end
            guard end > cut.at else { continue }
            let look = lane.show(cut.reading, cut.at)
            if let last = segments.last, last.text == look.text, last.end == cut.at {
                segments[segments.count - 1].end = end
            } else {
                segments.append(
                    Segment(start: cut.at, end: end, text: look.text, color: look.color, rank: look.rank))
            }
        }
        return segments
    }

}

import OffstageCore

/// Draws an explored history from a seed: the app opened at the start, then disturbances at random moments over
/// the history's length, half of them in bursts seconds after the previous one (so that kills and expirations
/// land mid-task, mid-callback and between two awaits). The same seed gives the same history.
struct HistoryGenerator {
    /// The identifiers of the app's tasks (its manifest's permitted identifiers, wildcards left out).
    var taskIdentifiers: [String]
    /// The controls the user may tap.
    var controls: [String]
    /// Seconds the history lasts.
    var length: Double
    /// Disturbances after the first open.
    var events: Int

    /// The history of `seed`, in time order (at millisecond resolution).
    func history(seed: UInt64) -> [HistoryEvent] {
        var random = SeededRandom(seed: seed)
        let window = max(60, length - Invariant.settlingTime)  // the history's work settles in its end
        var history = [HistoryEvent(at: moment(random.unit() * 60), .open)]
        var previous = history[0].at
        for _ in 0..<events {
            let at = random.unit() < 0.5 ? previous + random.unit() * 20 : random.unit() * window
            previous = moment(min(at, window))
            history.append(HistoryEvent(at: previous, disturbance(&random)))
        }
        return history.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    /// A time rounded to the millisecond, so that the timeline written out reads back the same.
    private func moment(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    /// One disturbance, drawn by weight: the app's tasks and the user's moves most often.
    private func disturbance(_ random: inout SeededRandom) -> Disturbance {
        var choices: [(weight: Int, make: (inout SeededRandom) -> Disturbance)] = [
            (3, { _ in .open }), (3, { _ in .home }), (1, { _ in .lock }), (1, { _ in .unlock }),
            (1, { _ in .plug }), (1, { _ in .unplug }),
            (2, { .network($0.pick([NetworkKind.none, .wifi, .cellular])) }),
            (1, { .lowPowerMode($0.unit() < 0.5) }),
            (1, { $0.pick([ThermalState.nominal, .serious, .critical].map(Disturbance.thermal)) }),
            (1, { _ in .forceQuit }), (2, { _ in .jetsam }),
        ]
        if !taskIdentifiers.isEmpty {
            choices.append((4, { .launchTask($0.pick(taskIdentifiers)) }))
            choices.append((3, { .expireTask($0.pick(taskIdentifiers)) }))
        }
        if !controls.isEmpty { choices.append((2, { .tap($0.pick(controls)) })) }
        var draw = Int(random.next() % UInt64(choices.map(\.weight).reduce(0, +)))
        for choice in choices {
            if draw < choice.weight { return choice.make(&random) }
            draw -= choice.weight
        }
        return .open
    }
}

extension SeededRandom {
    /// One of `options` (not empty).
    mutating func pick<Element>(_ options: [Element]) -> Element { options[Int(next() % UInt64(options.count))] }
}

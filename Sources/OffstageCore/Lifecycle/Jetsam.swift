/// Jetsam's choice under memory pressure (§2): which processes end to free the memory needed. Suspended apps go
/// first, then background (and inactive) ones, never the app on screen; within each group the least recently used
/// goes first (the largest on a tie), except that when one app's footprint alone frees what is still needed, the
/// least recently used such app goes instead, and no other: a 20 MB app is not killed beside the 300 MB one that
/// frees enough alone (ours: Apple documents no rule beyond "suspended apps first").
enum Jetsam {
    /// What jetsam looks at in one installed app.
    struct Candidate: Equatable {
        var id: BundleID
        var state: AppState
        var lastUsed: Instant
        var memoryFootprint: Int
    }

    /// The apps to end, in order, to free `bytes` from `candidates` (installed apps, in installation order) while
    /// `onScreen` is on screen, and the bytes they free (less than `bytes` when every candidate is not enough).
    static func victims(toFree bytes: Int, among candidates: [Candidate], onScreen: BundleID?)
        -> (victims: [BundleID], freed: Int)
    {
        func group(_ state: (AppState) -> Bool) -> [Candidate] {
            candidates.filter { $0.id != onScreen && state($0.state) }
                .sorted { x, y in
                    if x.lastUsed != y.lastUsed { return x.lastUsed < y.lastUsed }
                    return x.memoryFootprint > y.memoryFootprint
                }
        }
        var (victims, freed) = ([BundleID](), 0)
        for var candidates in [group { $0 == .suspended }, group { $0 == .background || $0 == .inactive }] {
            while freed < bytes, !candidates.isEmpty {
                let needed = bytes - freed
                let index = candidates.firstIndex { $0.memoryFootprint >= needed } ?? 0
                let victim = candidates.remove(at: index)
                freed += victim.memoryFootprint
                victims.append(victim.id)
            }
        }
        return (victims, freed)
    }
}

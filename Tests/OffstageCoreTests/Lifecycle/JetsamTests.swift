import Testing

@testable import OffstageCore

/// Jetsam's choice on its own (§2): suspended apps before background ones, least recently used first (the largest
/// on a tie), one app that frees enough alone instead of several, never the app on screen.
@Suite struct JetsamTests {
    let megabyte = 1_000_000

    /// A device with an app on screen, two suspended apps, two background ones used at the same time and one
    /// not running.
    var candidates: [Jetsam.Candidate] {
        let apps: [(String, AppState, Double, Int)] = [
            ("onScreen", .active, 0, 500), ("small", .suspended, 1, 20), ("large", .suspended, 5, 300),
            ("tiedSmall", .background, 3, 10), ("tiedLarge", .inactive, 3, 40), ("notRunning", .notRunning, 0, 500),
        ]
        return apps.map { name, state, usedAt, megabytes in
            Jetsam.Candidate(
                id: BundleID(name), state: state, lastUsed: Instant(seconds: usedAt),
                memoryFootprint: megabytes * megabyte)
        }
    }

    func victims(toFree megabytes: Int) -> (names: [String], freed: Int) {
        let (victims, freed) = Jetsam.victims(
            toFree: megabytes * megabyte, among: candidates, onScreen: BundleID("onScreen"))
        return (victims.map(\.rawValue), freed / megabyte)
    }

    @Test func suspendedAppsGoFirstLeastRecentlyUsedFirstThenBackgroundOnesNeverTheAppOnScreen() {
        let all = victims(toFree: 10_000)
        #expect(all.names == ["small", "large", "tiedLarge", "tiedSmall"] && all.freed == 370)
    }

    @Test func oneAppThatFreesEnoughGoesAloneAndTheLargestGoesFirstOnATie() {
        let alone = victims(toFree: 250)
        #expect(alone.names == ["large"] && alone.freed == 300)
        let three = victims(toFree: 340)
        #expect(three.names == ["small", "large", "tiedLarge"] && three.freed == 360)
    }
}

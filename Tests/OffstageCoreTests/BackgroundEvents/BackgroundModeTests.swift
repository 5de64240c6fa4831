import Testing

@testable import OffstageCore

/// SPEC §7: background modes keep an app running while it does that kind of work, and location events
/// relaunch (or resume) the app for about 10 s.
@Suite struct BackgroundModeTests {
    let player: BundleID = "com.example.player"

    /// A harness with one app declaring `modes`.
    func harness(modes: Set<BackgroundMode> = [.audio, .location, .voip]) -> CoreHarness {
        CoreHarness(apps: [AppManifest(bundleIdentifier: player, backgroundModes: modes)])
    }

    @Test func appPlayingAudioKeepsRunningInTheBackgroundUntilItStops() {
        var h = harness()
        h.open(player)
        h.call(.setBackgroundActivity(.audio, active: true), from: player)
        h.handle(.home)
        h.advance(by: 3600)
        #expect(h.state(of: player) == .background)
        #expect(h.system.app(player).activeBackgroundModes == [.audio])
        let (_, effects) = h.callWithEffects(.setBackgroundActivity(.audio, active: false), from: player)
        #expect(effects.records(.backgroundMode).map(\.reason) == ["audio stopped"])
        #expect(effects.actions == [.suspend(player)])
    }

    @Test func aCallInProgressKeepsAVoIPAppRunning() {
        var h = harness()
        h.open(player)
        h.handle(.home)
        #expect(h.state(of: player) == .suspended)
        h.open(player)
        h.call(.setBackgroundActivity(.voip, active: true), from: player)
        h.handle(.home)
        h.advance(by: 600)
        #expect(h.state(of: player) == .background)
    }

    @Test func undeclaredModeHasNoEffectAndIsLogged() {
        var h = harness(modes: [.audio])
        h.open(player)
        let (result, effects) = h.callWithEffects(.setBackgroundActivity(.voip, active: true), from: player)
        #expect(result == .ok)
        #expect(
            effects.records(.log).map(\.reason) == [
                "voip started without 'voip' in UIBackgroundModes: no effect, the app is suspended in the background as usual"
            ])
        h.handle(.home)
        #expect(h.state(of: player) == .suspended)
    }

    @Test func modeThatDoesNotKeepAnAppRunningIsIgnored() {
        var h = harness(modes: [.fetch])
        h.open(player)
        let (_, effects) = h.callWithEffects(.setBackgroundActivity(.fetch, active: true), from: player)
        #expect(effects.records(.log).map(\.reason) == ["'fetch' is not a mode that keeps an app running: ignored"])
        #expect(h.system.app(player).activeBackgroundModes.isEmpty)
    }

    @Test func activeModesEndWithTheProcess() {
        var h = harness()
        h.open(player)
        h.call(.setBackgroundActivity(.audio, active: true), from: player)
        h.handle(.home)
        h.handle(.swipeAway(player))
        #expect(h.state(of: player) == .notRunning)
        #expect(h.system.app(player).activeBackgroundModes.isEmpty)
    }

    @Test func significantLocationChangeRelaunchesTheAppFor10Seconds() {
        var h = harness()
        h.open(player)
        h.call(.setSignificantLocationMonitoring(true), from: player)
        h.handle(.home)
        h.handle(.memoryPressure(bytes: 1))
        #expect(h.state(of: player) == .notRunning)
        let effects = h.handle(.locationEvent(player, .significantChange))
        #expect(effects.actions.first == .launch(player, .backgroundTask))
        #expect(effects.callbacks(of: player) == [.willFinishLaunching, .didFinishLaunching, .didEnterBackground])
        #expect(effects.backgroundEvents.map(\.event) == [.location(.significantChange)])
        #expect(
            effects.records(.delivered).map(\.reason) == [
                "locationManager(_:didUpdateLocations:): 10 s in the background"
            ]
        )
        #expect(h.advance(by: 9.9).actions.isEmpty)
        let end = h.advance(by: 0.1)
        #expect(end.records(.handled).map(\.reason) == ["the 10 s the location event gives the app are over"])
        #expect(end.actions == [.suspend(player)])
    }

    @Test func locationEventResumesASuspendedApp() {
        var h = harness()
        h.open(player)
        h.call(.setSignificantLocationMonitoring(true), from: player)
        h.handle(.home)
        let effects = h.handle(.locationEvent(player, .significantChange))
        #expect(effects.actions.first == .resume(player))
        #expect(h.state(of: player) == .background)
    }

    @Test func regionEventForAMonitoredRegionRelaunchesTheApp() {
        var h = harness()
        h.open(player)
        h.call(.setRegionMonitoring(identifier: "home", true), from: player)
        h.handle(.swipeAway(player))
        let effects = h.handle(.locationEvent(player, .enteredRegion("home")))
        #expect(effects.backgroundEvents.map(\.event) == [.location(.enteredRegion("home"))])
        #expect(
            effects.records(.delivered).first?.reason == "locationManager(_:didEnterRegion:): 10 s in the background")
    }

    @Test func locationEventTheAppDoesNotMonitorIsDropped() {
        var h = harness()
        h.open(player)
        h.call(.setRegionMonitoring(identifier: "home", true), from: player)
        h.call(.setRegionMonitoring(identifier: "home", false), from: player)
        h.handle(.home)
        let region = h.handle(.locationEvent(player, .exitedRegion("home")))
        #expect(region.records(.dropped).map(\.reason) == ["the app does not monitor the region home"])
        let change = h.handle(.locationEvent(player, .significantChange))
        #expect(change.records(.dropped).map(\.reason) == ["the app does not monitor location changes"])
        #expect(h.state(of: player) == .suspended)
    }

    @Test func backgroundLocationUpdatesKeepTheAppRunningAndReceiveLocationChanges() {
        var h = harness()
        h.open(player)
        h.call(.setBackgroundActivity(.location, active: true), from: player)
        h.handle(.home)
        let effects = h.handle(.locationEvent(player, .significantChange))
        #expect(effects.backgroundEvents.count == 1)
        h.advance(by: 60)
        #expect(h.state(of: player) == .background)
    }
}

import Foundation
import OffstageSimulator
import Testing

/// The interposition through which the simulator runs app code in virtual time: complete in this process,
/// covering every libdispatch entry point that queues work, and absent from the apps the daemon runs.
@Suite struct InterpositionTests {
    /// The products folder of this build (where `swift build` puts the executables).
    static let products: URL = {
        var candidate = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 where !FileManager.default.fileExists(atPath: candidate.appendingPathComponent("offstage").path)
        {
            candidate.deleteLastPathComponent()
        }
        return candidate
    }()

    /// The interposition's own definitions, which reach the host instead of libdispatch, libc or CoreFoundation.
    static let interposed = Set(Interposition.symbols.filter { $0.interposed == true }.map(\.name))

    @Test func everySymbolTheInterpositionNeedsResolvedAtLoad() {
        #expect(Interposition.problems == [])
        #expect(Interposition.symbols.allSatisfy { $0.found && $0.interposed != false && !$0.loses.isEmpty })
        #expect(
            Self.interposed.isSuperset(of: [
                "dispatch_async", "dispatch_async_f", "dispatch_after_f", "dispatch_source_set_event_handler_f",
                "clock_gettime", "nanosleep", "_CFIsMainThread", "_CFThreadCreate",
            ]))
        #expect(
            Set(Interposition.symbols.filter { $0.interposed == nil }.map(\.name)).isSuperset(of: [
                "_dispatch_source_type_timer", "dispatch_get_context", "CFRunLoopTimerGetContext",
            ]))
    }

    @Test func aMissingSymbolIsNamedWithWhatVirtualTimeLoses() {
        let missing = InterposedSymbol(
            name: "dispatch_after_f", loses: "Task.sleep fires after real seconds",
            found: false, interposed: true)
        #expect(missing.problem == "dispatch_after_f was not found (Task.sleep fires after real seconds)")
        let bypassed = InterposedSymbol(
            name: "clock_gettime", loses: "Date() reads real time", found: true,
            interposed: false)
        #expect(
            bypassed.problem == "clock_gettime is not interposed: calls reach the real one (Date() reads real time)")
        #expect(InterposedSymbol(name: "time", loses: "x", found: true, interposed: true).problem == nil)
    }

    @Test func everyLibdispatchEntryPointIsInterposedOrListed() throws {
        let exported = try ELFExports.functions(inFileAt: ELFExports.loadedLibrary(named: "libdispatch.so"))
        #expect(exported.contains("dispatch_async_f") && exported.count > 100)
        let uncovered = exported.filter {
            !Self.interposed.contains($0) && LibdispatchEntryPoints.notInterposed[$0] == nil
        }
        #expect(uncovered.sorted() == [], "libdispatch functions neither interposed nor listed with why")
        let listedAndInterposed = Self.interposed.intersection(LibdispatchEntryPoints.notInterposed.keys)
        #expect(listedAndInterposed.sorted() == [])
        let listedButGone = Set(LibdispatchEntryPoints.notInterposed.keys).subtracting(exported)
        #expect(listedButGone.sorted() == [], "listed functions this libdispatch no longer exports")
    }

    /// Executables that run simulated app code export the interposition; apps built for the daemon do not, so
    /// their libdispatch, clocks and run loop are the real ones.
    @Test func onlyHostsOfSimulatedAppsCarryTheInterposition() throws {
        for host in ["offstage", "offstage-trial", "colorfeed"] {
            let exported = try ELFExports.functions(inFileAt: Self.products.appendingPathComponent(host).path)
            #expect(exported.isSuperset(of: Self.interposed), "\(host) lacks part of the interposition")
        }
        for app in ["offstage-testapp", "SceneTestApp", "colorfeed-app"] {
            let exported = try ELFExports.functions(inFileAt: Self.products.appendingPathComponent(app).path)
            #expect(exported.intersection(Self.interposed).sorted() == [], "\(app) carries the interposition")
        }
    }
}

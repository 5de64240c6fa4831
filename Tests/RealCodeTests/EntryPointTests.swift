import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// `UIApplicationMain` and `@main` make the delegate from its class name, as UIKit does; the parts that do not
/// start a process are tested here.
@Suite struct EntryPointTests {
    @Test @MainActor func theDelegateIsMadeFromItsClassName() throws {
        let make = try OffstageApplication.delegateMaker(className: NSStringFromClass(NotesAppDelegate.self))
        #expect(make() is NotesAppDelegate)
        #expect(NSStringFromClass(NotesAppDelegate.self) == "RealCodeTests.NotesAppDelegate")
    }

    @Test func aClassNameThatNamesNoDelegateIsAClearError() {
        #expect(throws: OffstageApplication.DelegateClassError.self) {
            try OffstageApplication.delegateMaker(className: "RealCodeTests.NoSuchDelegate")
        }
        do {
            _ = try OffstageApplication.delegateMaker(className: "RealCodeTests.NotesSceneDelegate")
            Issue.record("a scene delegate is not an app delegate")
        } catch {
            #expect(error.description.contains("is not an NSObject that adopts UIApplicationDelegate"))
        }
    }

    @Test @MainActor func aDelegateWithOverrideInitIsMadeFromItsClassNameThroughItsOwnInit() throws {
        let before = Date()
        let make = try OffstageApplication.delegateMaker(className: NSStringFromClass(RemindersAppDelegate.self))
        let delegate = try #require(make() as? RemindersAppDelegate)
        #expect(delegate.startedAt >= before)  // set by its `override init()`, which a `required init` would forbid
        let plain = try OffstageApplication.delegateMaker(className: NSStringFromClass(HeadlinesAppDelegate.self))
        #expect(plain() is HeadlinesAppDelegate)  // an NSObject delegate, not a UIResponder
    }

    @Test func aSceneManifestOfTheWrongTypeNamesItsKeyPath() {
        let keyPath =
            "UIApplicationSceneManifest.UISceneConfigurations.UIWindowSceneSessionRoleApplication[0]"
            + ".UISceneDelegateClassName"
        #expect(throws: OffstageSceneManifestError(keyPath: keyPath, expected: "a string")) {
            try OffstageSceneManifest(infoDictionary: [
                "UIApplicationSceneManifest": [
                    "UISceneConfigurations": ["UIWindowSceneSessionRoleApplication": [["UISceneDelegateClassName": 3]]]
                ]
            ])
        }
        #expect((try? OffstageSceneManifest(infoDictionary: ["CFBundleIdentifier": "x"])) == .some(nil))
    }

    @Test func unknownErrorCodesCompileWithUnknownDefault() {
        func describe(_ code: BGTaskScheduler.Error.Code) -> String {
            switch code {
            case .unavailable: "unavailable"
            case .tooManyPendingTaskRequests: "too many"
            case .notPermitted: "not permitted"
            case .immediateRunIneligible: "ineligible"
            @unknown default: "unknown"
            }
        }
        #expect(describe(.notPermitted) == "not permitted")
    }
}

/// Saves when it leaves: a background task whose expiration handler is main-actor code, as UIKit declares it.
nonisolated final class SavingApp: UIApplicationDelegate, @unchecked Sendable {
    nonisolated(unsafe) static var sightings = Sightings()
    var saveTask: UIBackgroundTaskIdentifier = .invalid

    func applicationDidEnterBackground(_ application: UIApplication) {
        saveTask = application.beginBackgroundTask(withName: "save") {
            // `@MainActor @Sendable`: main-actor code runs here synchronously, as on iOS.
            Self.noteOnMain("expired")
            UIApplication.shared.endBackgroundTask(self.saveTask)
        }
    }

    @MainActor static func noteOnMain(_ line: String) { sightings.note(line) }
}

@Suite(.serialized) struct MainActorExpirationTests {
    @Test func anExpirationHandlerIsMainActorCode() throws {
        SavingApp.sightings = Sightings()
        let app = "com.example.saving"
        let run = RealCodeRun(
            apps: [(AppManifest(bundleIdentifier: BundleID(app)), { @Sendable in SavingApp() })],
            timeline: [at(1, .open(BundleID(app))), at(10, .home)], duration: 120)
        let records = try run.run()
        #expect(SavingApp.sightings.lines == ["expired"])
        #expect(records.of(.killed, app).isEmpty)
        #expect(records.of(.suspended, app).map(\.at.seconds) == [35])
    }
}

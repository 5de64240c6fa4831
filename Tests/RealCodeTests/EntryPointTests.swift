import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// `UIApplicationMain` and `@main` make the delegate from its class name, as UIKit does; the parts that do not
/// start a process are tested here.
@Suite struct EntryPointTests {
    @Test func theDelegateIsMadeFromItsClassName() throws {
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
            #expect(error.description.contains("is not a UIResponder that adopts UIApplicationDelegate"))
        }
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

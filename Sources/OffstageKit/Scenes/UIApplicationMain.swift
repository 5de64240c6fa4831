import Foundation

/// `UIApplicationMain(_:_:_:_:)`: runs the app whose delegate class is named, under the daemon (the counterpart
/// of iOS's `main`). The delegate is made from its class name, as UIKit makes it; the Info.plist beside the
/// executable (the bundle folder's) gives the scene manifest. `principalClassName` is ignored: there is only
/// `UIApplication`. Never returns.
@discardableResult
public func UIApplicationMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ principalClassName: String?,
    _ delegateClassName: String?
) -> Int32 {
    let makeDelegate: @MainActor () -> any UIApplicationDelegate
    do {
        makeDelegate = try OffstageApplication.delegateMaker(className: delegateClassName)
    } catch {
        FileHandle.standardError.write(Data("UIApplicationMain: \(error)\n".utf8))
        exit(1)
    }
    OffstageApplication.main(makeDelegate: makeDelegate, sceneManifest: OffstageApplication.bundleSceneManifest())
}

extension UIApplicationDelegate {
    /// `@main` on the app delegate: `UIApplicationMain` with the delegate's class, as UIKit's `main()` does.
    public static func main() {
        UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, NSStringFromClass(Self.self as AnyClass))
    }
}

extension OffstageApplication {
    /// Why a delegate cannot be made from its class name.
    public struct DelegateClassError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Makes a delegate from a class name, as UIKit does: the class must exist, be an `NSObject` (a `UIResponder`
    /// or not) and adopt `UIApplicationDelegate`.
    public static func delegateMaker(className: String?) throws(DelegateClassError)
        -> @MainActor () -> any UIApplicationDelegate
    {
        guard let className else { throw DelegateClassError(description: "no delegate class name") }
        guard let type = NSClassFromString(className) else {
            throw DelegateClassError(description: "no class named '\(className)' (write it as Module.ClassName)")
        }
        guard let objectType = type as? NSObject.Type, type is any UIApplicationDelegate.Type,
            NSObject.made(objectType) != nil
        else {
            throw DelegateClassError(description: "'\(className)' is not an NSObject that adopts UIApplicationDelegate")
        }
        return { NSObject.made(objectType) as! any UIApplicationDelegate }
    }

    /// The scene manifest of the Info.plist in the executable's folder (the app bundle), if it has one.
    static func bundleSceneManifest() -> OffstageSceneManifest? {
        // The path the process was started by (the bundle's link), not the file the link resolves to.
        guard let executable = CommandLine.arguments.first.map(URL.init(fileURLWithPath:)),
            let data = FileManager.default.contents(
                atPath: executable.deletingLastPathComponent().appendingPathComponent("Info.plist").path),
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        else { return nil }
        return try? OffstageSceneManifest(infoDictionary: plist)
    }
}

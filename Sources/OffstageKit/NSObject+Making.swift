import Foundation
import OffstageClassFactory

extension NSObject {
    /// Makes an instance of `type` through its `init()`, as UIKit makes a delegate from the class an Info.plist or
    /// `@UIApplicationDelegateAdaptor` names: no `required` initializer needed, so `override init()` compiles.
    /// Nil only when Foundation's `NSObject` symbols are missing (a Foundation other than swift-corelibs').
    static func made<Instance: NSObject>(_ type: Instance.Type) -> Instance? {
        guard let object = offstage_make_object(unsafeBitCast(type as AnyClass, to: UnsafeRawPointer.self)) else {
            return nil
        }
        return Unmanaged<AnyObject>.fromOpaque(object).takeRetainedValue() as? Instance
    }
}

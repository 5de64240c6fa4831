public import Foundation

/// `NSExtensionRequestHandling`: how an app extension's principal object is started. An extension has no app
/// delegate; iOS calls `beginRequest(with:)` when a host app asks it for something. Foundation on Linux lacks it.
public protocol NSExtensionRequestHandling: AnyObject {
    func beginRequest(with context: NSExtensionContext)
}

/// `NSExtensionContext`: the host app's request to an extension. The simulated system sends no items, so
/// `inputItems` is empty; `completeRequest` calls its handler with `true` on a background queue.
open class NSExtensionContext: NSObject, @unchecked Sendable {
    /// The items the host app sent: none here.
    open var inputItems: [Any] { [] }

    /// Ends the request, handing `items` back to the host app.
    open func completeRequest(
        returningItems items: [Any]?, completionHandler: (@Sendable (Bool) -> Void)? = nil
    ) {
        guard let completionHandler else { return }
        DispatchQueue.global().async { completionHandler(true) }
    }
}

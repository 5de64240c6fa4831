import Foundation
import FoundationNetworking

// `URLSessionConfiguration.default` and `.ephemeral` as app code reaches them through OffstageKit (Apple's
// `import UIKit` included). FoundationNetworking's own configurations list its HTTP protocol first, so a session an
// app makes with `URLSession(configuration: .default)` would bypass the registered `OffstageURLProtocol` and go to
// the real network, whose timers and callbacks then run on the simulator's virtual clock (FoundationNetworking
// traps). These declarations shadow FoundationNetworking's for code that imports OffstageKit: the same settings,
// with `OffstageURLProtocol` first, which takes a request only in a host that simulates the network.
// `URLSession.shared` needs no shadow: it takes the registered classes, the simulated network's among them.

extension URLSessionConfiguration {
    /// `URLSessionConfiguration.default`: FoundationNetworking's default settings; the simulated network's
    /// protocol first, then the registered ones (FoundationNetworking's HTTP, FTP and data protocols).
    public class var `default`: URLSessionConfiguration {
        // The shared session's configuration is FoundationNetworking's default with the registered protocols.
        // Registered first: the shared session takes the registered classes once, when first used (a protocol
        // that declines every request outside a host that simulates the network).
        // A copy: FoundationNetworking hands out the shared session's own configuration object.
        OffstageURLProtocol.registration
        return simulated(URLSession.shared.configuration.copy() as! URLSessionConfiguration)
    }

    /// `URLSessionConfiguration.ephemeral`: FoundationNetworking's (in-memory cookies, credentials and cache, its
    /// internal API makes them, reached by a module selector), with the simulated network's protocol first.
    public class var ephemeral: URLSessionConfiguration {
        simulated(URLSessionConfiguration.FoundationNetworking::ephemeral)
    }

    /// The configuration with `OffstageURLProtocol` first, ahead of the protocols it already lists.
    private static func simulated(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        let others = (configuration.protocolClasses ?? []).filter { $0 != OffstageURLProtocol.self }
        configuration.protocolClasses = [OffstageURLProtocol.self] + others
        return configuration
    }
}

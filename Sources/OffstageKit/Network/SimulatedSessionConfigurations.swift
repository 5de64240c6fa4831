public import Foundation

// `URLSessionConfiguration.default` as app code reaches it through OffstageKit (Apple's
// `import UIKit` included). FoundationNetworking's own configurations list its HTTP protocol first, so a session an
// app makes with `URLSession(configuration: .default)` would bypass the registered `OffstageURLProtocol` and go to
// the real network, whose timers and callbacks then run on the simulator's virtual clock (FoundationNetworking
// traps). This declaration shadows FoundationNetworking's for code that imports OffstageKit: the same settings,
// with `OffstageURLProtocol` first, which takes a request only in a host that simulates the network.
// `.ephemeral` is not shadowed: its in-memory stores are made by FoundationNetworking's internal API.

extension URLSessionConfiguration {
    /// `URLSessionConfiguration.default`: FoundationNetworking's default settings; the simulated network's
    /// protocol first, then the registered ones (FoundationNetworking's HTTP, FTP and data protocols).
    public class var `default`: URLSessionConfiguration {
        // The shared session's configuration is FoundationNetworking's default with the registered protocols.
        // Registered first: the shared session takes the registered classes once, when first used (a protocol
        // that declines every request outside a host that simulates the network).
        // A copy: FoundationNetworking hands out the shared session's own configuration object.
        OffstageURLProtocol.registration
        let configuration = URLSession.shared.configuration.copy() as! URLSessionConfiguration
        let others = (configuration.protocolClasses ?? []).filter { $0 != OffstageURLProtocol.self }
        configuration.protocolClasses = [OffstageURLProtocol.self] + others
        return configuration
    }

}

import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator

extension RealCodeRun {
    /// A run whose scenario also has a network, a device network and scene manifests (by bundle identifier).
    init(
        apps: [(AppManifest, @MainActor @Sendable () -> any UIApplicationDelegate)],
        sceneManifests: [String: OffstageSceneManifest] = [:], network: SimulatedNetwork = SimulatedNetwork(),
        deviceNetwork: NetworkKind = .wifi, timeline: [TimelineEntry], duration: Double
    ) {
        self.init(apps: apps, timeline: timeline, duration: duration) { scenario in
            scenario.network = network
            scenario.device.network = deviceNetwork
            for index in scenario.apps.indices {
                scenario.apps[index].sceneManifest =
                    sceneManifests[scenario.apps[index].manifest.bundleIdentifier.rawValue]
            }
        }
    }
}

extension SimulatedNetwork {
    /// A network where `host` answers every request with `bytes` bytes after `serverTime` seconds.
    static func serving(_ host: String, bytes: Int, serverTime: Double) -> SimulatedNetwork {
        var network = SimulatedNetwork()
        network.routes.append(
            NetworkRoute(
                match: .host(host), answer: .response(OffstageNetworkResponse(body: Data(count: bytes))),
                serverTime: serverTime))
        return network
    }
}

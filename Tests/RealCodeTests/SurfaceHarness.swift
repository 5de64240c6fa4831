import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator

/// A scenario of real app code with what `RealCodeRun` leaves out: a network, a device network, scene manifests.
struct SurfaceRun {
    var apps: [(AppManifest, @Sendable () -> any UIApplicationDelegate)]
    var sceneManifests: [String: OffstageSceneManifest] = [:]
    var network = SimulatedNetwork()
    var deviceNetwork: NetworkKind = .wifi
    var timeline: [TimelineEntry]
    var duration: Double

    func simulation() throws -> Simulation {
        var catalog: [String: @Sendable () -> any UIApplicationDelegate] = [:]
        var scenarioApps: [ScenarioApp] = []
        for (manifest, make) in apps {
            let name = manifest.bundleIdentifier.rawValue
            catalog[name] = make
            var app = ScenarioApp(manifest: manifest, code: name)
            app.sceneManifest = sceneManifests[name]
            scenarioApps.append(app)
        }
        var scenario = Scenario(
            name: "real code", source: "test", apps: scenarioApps, timeline: timeline, duration: duration)
        scenario.network = network
        scenario.device.network = deviceNetwork
        return try Simulation(scenario: scenario, catalog: SwiftAppCatalog(catalog))
    }

    func run() throws -> [Record] { try simulation().run() }

    /// The records of `times` runs as text, one string per run, for comparing them byte for byte.
    func texts(runs times: Int) throws -> [String] {
        try (0..<times).map { _ in try run().map { "\($0)" }.joined(separator: "\n") }
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

import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// The scenario's `network:` section and its apps' scene manifests, read from YAML.
@Suite struct NetworkScenarioTests {
    static let yaml = """
        name: network
        network:
          wifi: { latency: 20ms, bandwidth: 80Mbps }
          cellular: { latency: 0.3s, bandwidth: 1MB/s }
          routes:
            - { host: api.example.com, status: 203, body: hello, serverTime: 2s, headers: { X-Kind: test } }
            - { url: "https://cdn.example.com/big.bin", bytes: 2MB }
            - { host: down.example.com, error: timedOut }
        apps:
          - manifest:
              CFBundleIdentifier: com.example.notes
              UIApplicationSceneManifest:
                UISceneConfigurations:
                  UIWindowSceneSessionRoleApplication:
                    - { UISceneConfigurationName: Default, UISceneDelegateClassName: RealCodeTests.NotesSceneDelegate }
            behaviour: {}
        """

    @Test func theNetworkSectionSetsLinksAndRoutes() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.yaml, source: "network.yaml")
        let network = scenario.network
        #expect(network.wifi == SimulatedNetwork.LinkSpeed(latency: 0.02, bytesPerSecond: 10_000_000))
        #expect(network.cellular == SimulatedNetwork.LinkSpeed(latency: 0.3, bytesPerSecond: 1_000_000))
        let api = network.exchange(
            OffstageNetworkRequest(url: URL(string: "https://api.example.com/x")!), on: .wifi, lowDataMode: false)
        let hello = OffstageNetworkResponse(statusCode: 203, headers: ["X-Kind": "test"], body: Data("hello".utf8))
        let helloSeconds: Double = 0.02 + 2 + 5.0 / 10_000_000
        #expect(api == .response(hello, seconds: helloSeconds, bytes: 5))
        let big = network.exchange(
            OffstageNetworkRequest(url: URL(string: "https://cdn.example.com/big.bin")!), on: .cellular,
            lowDataMode: false)
        #expect(big == .response(OffstageNetworkResponse(body: Data(count: 2_000_000)), seconds: 2.3, bytes: 2_000_000))
        let down = network.exchange(
            OffstageNetworkRequest(url: URL(string: "https://down.example.com/")!), on: .wifi, lowDataMode: false)
        #expect(down == .failure(.timedOut, seconds: 0.02))
        let unknown = network.exchange(
            OffstageNetworkRequest(url: URL(string: "https://other.example.com/")!), on: .wifi, lowDataMode: false)
        #expect(unknown == .response(OffstageNetworkResponse(statusCode: 404), seconds: 0.02, bytes: 0))
        let scenes = try #require(scenario.apps.first?.sceneManifest)
        #expect(
            scenes.configurations["UIWindowSceneSessionRoleApplication"] == [
                .init(name: "Default", delegateClassName: "RealCodeTests.NotesSceneDelegate")
            ])
    }

    @Test func fixturesAreServedByHostAndPath() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offstage-fixtures-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = folder.appendingPathComponent("fixtures/api.example.com/v1")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        try Data("[1,2,3]".utf8).write(to: feed.appendingPathComponent("feed.json"))
        let path = folder.appendingPathComponent("scenario.yaml").path
        try Data("name: fixtures\nnetwork:\n  fixtures: fixtures\n".utf8).write(to: URL(fileURLWithPath: path))
        let network = try ScenarioLoader.load(contentsOf: path).network
        let answer = network.exchange(
            OffstageNetworkRequest(url: URL(string: "https://api.example.com/v1/feed.json")!), on: .wifi,
            lowDataMode: false)
        let seconds: Double = 0.04 + 7.0 / 6_250_000
        #expect(answer == .response(OffstageNetworkResponse(body: Data("[1,2,3]".utf8)), seconds: seconds, bytes: 7))
    }

    @Test func aBadNetworkValueIsAnErrorNamingItsFieldAndLine() {
        let bad = """
            name: bad
            network:
              wifi: { latency: 20ms, bandwidth: fast }
            """
        do {
            _ = try ScenarioLoader.parse(yaml: bad, source: "bad.yaml")
            Issue.record("a bandwidth of 'fast' was accepted")
        } catch {
            #expect(error.field == "network.wifi.bandwidth")
            #expect(error.line == 3)
            #expect(error.message.contains("a rate like 50Mbps"))
        }
        let both = "name: both\nnetwork:\n  routes:\n    - { host: a.example.com, error: timedOut, status: 200 }\n"
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: both, source: "both.yaml") }
        let wrongScenes = """
            name: scenes
            apps:
              - manifest:
                  CFBundleIdentifier: com.example.notes
                  UIApplicationSceneManifest: { UISceneConfigurations: 3 }
                behaviour: {}
            """
        do {
            _ = try ScenarioLoader.parse(yaml: wrongScenes, source: "scenes.yaml")
            Issue.record("a scene manifest with a number for its configurations was accepted")
        } catch {
            #expect(error.field?.hasSuffix("UIApplicationSceneManifest.UISceneConfigurations") == true)
            #expect(error.message == "expected a dictionary of session roles")
        }
    }
}

import Foundation
import OffstageKit

/// The `network:` section of a scenario and the scene manifest of its apps, read by `ScenarioReader`:
///
/// ```yaml
/// network:
///   wifi: { latency: 40ms, bandwidth: 50Mbps }      # the defaults
///   cellular: { latency: 120ms, bandwidth: 10Mbps }
///   fixtures: fixtures/              # bodies by host and path: fixtures/api.example.com/feed.json
///   routes:                          # the first match answers, before the fixtures; unmatched: 404
///     - { host: api.example.com, status: 200, body: '{"items": []}', serverTime: 2s }
///     - { url: https://cdn.example.com/photo.jpg, bytes: 3MB }
///     - { url: https://slow.example.com/, fixture: feeds/big.json, serverTime: 45s }
///     - { host: down.example.com, error: timedOut }
/// ```
extension ScenarioReader {
    func network(_ field: Field) throws(ScenarioError) -> SimulatedNetwork {
        let table = try field.table(
            ["wifi", "cellular", "fixtures", "routes"], expecting: "a mapping with wifi:, cellular:, fixtures:, routes:"
        )
        var network = SimulatedNetwork()
        if let wifi = table["wifi"] { network.wifi = try linkSpeed(wifi, default: network.wifi) }
        if let cellular = table["cellular"] { network.cellular = try linkSpeed(cellular, default: network.cellular) }
        if let folder = table["fixtures"] { network.fixtures = try fixtures(folder) }
        if let routes = table["routes"] {
            for route in try routes.list(expecting: "a list of routes") { network.routes.append(try self.route(route)) }
        }
        return network
    }

    private func linkSpeed(_ field: Field, default speed: SimulatedNetwork.LinkSpeed) throws(ScenarioError)
        -> SimulatedNetwork.LinkSpeed
    {
        let table = try field.table(["latency", "bandwidth"], expecting: "a mapping with latency: and bandwidth:")
        var speed = speed
        if let latency = table["latency"] { speed.latency = try latency.quantity(Self.seconds, Self.latencyHint) }
        if let bandwidth = table["bandwidth"] {
            let rate = try bandwidth.quantity(Self.bytesPerSecond, Self.bandwidthHint)
            guard rate > 0 else { throw bandwidth.error("must be more than 0") }
            speed.bytesPerSecond = rate
        }
        return speed
    }

    private func route(_ field: Field) throws(ScenarioError) -> NetworkRoute {
        let table = try field.table(
            ["host", "url", "status", "headers", "body", "bytes", "fixture", "error", "serverTime"],
            expecting: "a route: host: or url:, then status:, body:, bytes:, fixture: or error:")
        let match: NetworkRoute.Match
        switch (table["host"], table["url"]) {
        case (let host?, nil): match = .host(try host.string())
        case (nil, let url?):
            let text = try url.string()
            guard URL(string: text)?.host != nil else { throw url.expected("a URL like https://api.example.com/feed") }
            match = .url(text)
        case (_?, let url?): throw url.error("a route matches either 'host:' or 'url:', not both")
        case (nil, nil): throw field.error("a route needs 'host:' or 'url:'")
        }
        let serverTime = try table["serverTime"]?.quantity(Self.seconds, Self.latencyHint) ?? 0
        let bodies = [table["body"], table["bytes"], table["fixture"]].compactMap { $0 }
        if bodies.count > 1 { throw bodies[1].error("a route has one of 'body:', 'bytes:' or 'fixture:'") }
        if let error = table["error"] {
            if let other = bodies.first ?? table["status"] {
                throw other.error("a route with 'error:' has no response")
            }
            let code = try error.choice(Self.errorCodes.map { ($0.0, $0.1) })
            return NetworkRoute(match: match, answer: .failure(code), serverTime: serverTime)
        }
        var response = OffstageNetworkResponse()
        if let status = table["status"] {
            response.statusCode = try status.quantity({ Int($0.trimmingSpaces) }, "an HTTP status like 200")
            guard (100...599).contains(response.statusCode) else { throw status.error("must be from 100 to 599") }
        }
        if let headers = table["headers"] {
            for entry in try headers.table(nil, expecting: "a mapping of header names to values").entries {
                response.headers[entry.key] = try entry.value.string()
            }
        }
        if let body = table["body"] { response.body = Data(try body.string().utf8) }
        if let bytes = table["bytes"] {
            response.body = Data(count: try bytes.quantity(Quantities.bytes, Quantities.sizeHint))
        }
        if let fixture = table["fixture"] { response.body = try read(fixture, path: try fixture.string()) }
        return NetworkRoute(match: match, answer: .response(response), serverTime: serverTime)
    }

    /// Every file under the folder, by its path from the folder (`host/path`).
    private func fixtures(_ field: Field) throws(ScenarioError) -> [String: Data] {
        let folder = resolve(try field.string())
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw field.error("no such folder '\(folder)'")
        }
        var fixtures: [String: Data] = [:]
        let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
        for file in files {
            var isDirectory: ObjCBool = false
            let path = folder.hasSuffix("/") ? folder + file : folder + "/" + file
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            fixtures[file] = try read(field, path: path)
        }
        return fixtures
    }

    /// The bytes of a file named by the scenario, relative to its directory.
    private func read(_ field: Field, path relative: String) throws(ScenarioError) -> Data {
        let path = resolve(relative)
        guard let data = FileManager.default.contents(atPath: path) else { throw field.error("cannot read '\(path)'") }
        return data
    }

    /// A path relative to the scenario file's directory (as is) when absolute.
    private func resolve(_ relative: String) -> String {
        guard !relative.hasPrefix("/"), let slash = source.lastIndex(of: "/") else { return relative }
        return String(source[...slash]) + relative
    }

    /// The app's `UIApplicationSceneManifest`, from its inline manifest or its Info.plist file.
    func sceneManifest(inline: Field?, plist: Field?) throws(ScenarioError) -> OffstageSceneManifest? {
        let dictionary: [String: Any]
        let at: Field
        if let inline {
            dictionary = try inline.propertyList() as? [String: Any] ?? [:]
            at = inline
        } else if let plist {
            let data = try read(plist, path: try plist.string())
            dictionary =
                (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any] ?? [:]
            at = plist
        } else {
            return nil
        }
        do {
            return try OffstageSceneManifest(infoDictionary: dictionary)
        } catch {
            let culprit = at.locate(error.keyPath) ?? at
            throw ScenarioError(
                source: source, line: culprit.line, field: "\(at.path).\(error.keyPath)",
                message: "expected \(error.expected)")
        }
    }

    // MARK: Quantities of the network

    static let latencyHint = "a duration like 40ms, 0.2s or 30s"
    static let bandwidthHint = "a rate like 50Mbps, 800kbps or 2MB/s"

    /// Seconds from `40ms` or any duration `Quantities.seconds` reads.
    static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        guard trimmed.hasSuffix("ms") else { return Quantities.seconds(trimmed) }
        return Quantities.number(String(trimmed.dropLast(2)).trimmingSpaces).map { $0 / 1000 }
    }

    /// Bytes per second from bits (`bps`, `kbps`, `Mbps`, `Gbps`) or bytes (`B/s`, `KB/s`, `MB/s`, `GB/s`).
    static func bytesPerSecond(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard let value = Quantities.number(String(digits)) else { return nil }
        let units: [String: Double] = [
            "bps": 1 / 8, "kbps": 1e3 / 8, "Mbps": 1e6 / 8, "Gbps": 1e9 / 8,
            "B/s": 1, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9,
        ]
        return units[trimmed.dropFirst(digits.count).trimmingSpaces].map { value * $0 }
    }

    /// The `URLError.Code`s a route may fail with, by name.
    static let errorCodes: [(String, URLError.Code)] = [
        ("notConnectedToInternet", .notConnectedToInternet), ("timedOut", .timedOut),
        ("cannotFindHost", .cannotFindHost), ("cannotConnectToHost", .cannotConnectToHost),
        ("networkConnectionLost", .networkConnectionLost), ("dnsLookupFailed", .dnsLookupFailed),
        ("badServerResponse", .badServerResponse), ("secureConnectionFailed", .secureConnectionFailed),
    ]
}

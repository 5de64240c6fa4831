public import Foundation
public import OffstageCore
public import OffstageKit

/// The network a simulation's apps reach through `URLSession`: who answers which URL (routes, a folder of
/// fixtures, handlers in code) and how long an exchange takes on the device's network now. The time of an
/// exchange is the link's latency, the route's server time, and the bytes over the link's bandwidth.
public struct SimulatedNetwork: Sendable {
    /// One kind of link: its round-trip latency and its bandwidth.
    public struct LinkSpeed: Hashable, Sendable {
        public var latency: Double
        public var bytesPerSecond: Double

        public init(latency: Double, bytesPerSecond: Double) {
            self.latency = max(0, latency)
            self.bytesPerSecond = max(1, bytesPerSecond)
        }
    }

    /// Wi-Fi: 40 ms and 50 Mbit/s (our defaults: Apple publishes no figures).
    public var wifi = LinkSpeed(latency: 0.04, bytesPerSecond: 6_250_000)
    /// Cellular: 120 ms and 10 Mbit/s (our defaults).
    public var cellular = LinkSpeed(latency: 0.12, bytesPerSecond: 1_250_000)
    /// Routes, the first match answering; then the fixtures; then 404.
    public var routes: [NetworkRoute] = []
    /// Bodies served by `host/path` (the path without its leading slash; `host/` alone for the root).
    public var fixtures: [String: Data] = [:]

    public init() {}

    /// Adds a route answered by `handler` in code, for every URL of `host` (or one `url`).
    public mutating func route(
        _ match: NetworkRoute.Match, serverTime: Double = 0,
        handler: @escaping @Sendable (OffstageNetworkRequest) -> OffstageNetworkResponse
    ) {
        routes.append(NetworkRoute(match: match, answer: .handler(handler), serverTime: serverTime))
    }

    /// How the request ends on a device whose network is `kind`, with Low Data Mode on or off.
    public func exchange(
        _ request: OffstageNetworkRequest, on kind: NetworkKind, lowDataMode: Bool
    ) -> OffstageNetworkExchange {
        let link: LinkSpeed
        switch kind {
        case .none: return .failure(.notConnectedToInternet, seconds: 0)
        case .wifi: link = wifi
        case .cellular:
            guard request.allowsCellularAccess else { return .failure(.notConnectedToInternet, seconds: 0) }
            link = cellular
        }
        // Low Data Mode: requests that opt out of constrained networks fail at once (iOS: URLError with
        // `networkUnavailableReason == .constrained`).
        if lowDataMode, !request.allowsConstrainedNetworkAccess {
            return .failure(.notConnectedToInternet, seconds: 0)
        }
        let route = routes.first { $0.match.matches(request.url) }
        let serverTime = route?.serverTime ?? 0
        let response: OffstageNetworkResponse
        switch route?.answer {
        case .failure(let code)?: return .failure(code, seconds: link.latency + serverTime)
        case .handler(let handler)?: response = handler(request)
        case .response(let fixed)?: response = fixed
        case nil: response = fixture(for: request.url)
        }
        let bytes = request.body.count + response.body.count
        let seconds = link.latency + serverTime + Double(bytes) / link.bytesPerSecond
        return .response(response, seconds: seconds, bytes: bytes)
    }

    /// The fixture at `host/path`, or 404 with an empty body.
    private func fixture(for url: URL) -> OffstageNetworkResponse {
        guard let body = fixtures[Self.fixtureKey(url)] else { return OffstageNetworkResponse(statusCode: 404) }
        return OffstageNetworkResponse(statusCode: 200, body: body)
    }

    /// `host/path` of a URL, the key of its fixture.
    static func fixtureKey(_ url: URL) -> String {
        let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        return "\(url.host ?? "")/\(path)"
    }
}

/// Which requests a route answers, and how.
public struct NetworkRoute: Sendable {
    public enum Match: Hashable, Sendable {
        /// Every URL of this host.
        case host(String)
        /// This URL exactly (or any URL under it, when it ends with `/`).
        case url(String)

        func matches(_ url: URL) -> Bool {
            switch self {
            case .host(let host): url.host?.lowercased() == host.lowercased()
            case .url(let text): text.hasSuffix("/") ? url.absoluteString.hasPrefix(text) : url.absoluteString == text
            }
        }
    }

    public enum Answer: Sendable {
        case response(OffstageNetworkResponse)
        /// A handler in code, asked at the moment of the request.
        case handler(@Sendable (OffstageNetworkRequest) -> OffstageNetworkResponse)
        /// The request fails with this error after the latency and server time.
        case failure(URLError.Code)
    }

    public var match: Match
    public var answer: Answer
    /// Seconds the server takes to answer, on top of the link's latency.
    public var serverTime: Double

    public init(match: Match, answer: Answer, serverTime: Double = 0) {
        self.match = match
        self.answer = answer
        self.serverTime = max(0, serverTime)
    }
}

extension SimulatorLink {
    /// The app's request on the scenario's network, as the device's network and Low Data Mode are now.
    func exchange(_ request: OffstageNetworkRequest) -> OffstageNetworkExchange? {
        let system = simulation.system
        return simulation.scenario.network.exchange(
            request, on: system.device.network, lowDataMode: system.settings.lowDataMode)
    }

    var simulatesNetwork: Bool { true }
}

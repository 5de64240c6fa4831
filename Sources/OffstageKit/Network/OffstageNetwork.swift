public import Foundation

#if canImport(FoundationNetworking)
    @_exported public import FoundationNetworking
#endif

/// A request as the simulated network sees it: what `URLSession` sent through `OffstageURLProtocol`.
/// Not an Apple type: it is what a scenario's routes and a test's handlers answer.
public struct OffstageNetworkRequest: Hashable, Sendable {
    public var url: URL
    public var method: String
    public var headers: [String: String]
    public var body: Data
    /// `URLRequest.allowsCellularAccess` and `allowsConstrainedNetworkAccess` (Low Data Mode).
    public var allowsCellularAccess: Bool
    public var allowsConstrainedNetworkAccess: Bool

    public init(
        url: URL, method: String = "GET", headers: [String: String] = [:], body: Data = Data(),
        allowsCellularAccess: Bool = true, allowsConstrainedNetworkAccess: Bool = true
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsConstrainedNetworkAccess = allowsConstrainedNetworkAccess
    }

    init(_ request: URLRequest) {
        self.init(
            url: request.url ?? URL(fileURLWithPath: "/"), method: request.httpMethod ?? "GET",
            headers: request.allHTTPHeaderFields ?? [:], body: request.httpBody ?? Data(),
            allowsCellularAccess: request.allowsCellularAccess)
    }
}

/// A server's answer: status, headers and body.
public struct OffstageNetworkResponse: Hashable, Sendable {
    public var statusCode: Int
    public var headers: [String: String]
    public var body: Data

    public init(statusCode: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }
}

/// How one exchange on the simulated network ends, and after how many seconds of the system's time.
public enum OffstageNetworkExchange: Hashable, Sendable {
    /// The response arrives in full `seconds` after the request started; `bytes` went over the device's network.
    case response(OffstageNetworkResponse, seconds: Double, bytes: Int)
    /// The request fails with this error after `seconds` (0 for "no network").
    case failure(URLError.Code, seconds: Double)
}

extension SystemLink {
    /// The real network: a link whose host simulates none (the daemon's) lets `URLSession` go out as usual.
    public func exchange(_ request: OffstageNetworkRequest) -> OffstageNetworkExchange? { nil }
    public var simulatesNetwork: Bool { false }
}

import Foundation
@_spi(Reflection) import Swift

/// The file a simulated download task hands over, written where Foundation writes its downloads (a
/// `CFNetworkDownload_….tmp` in the temporary directory) before the delegate's `didFinishDownloadingTo` or the
/// completion handler runs. FoundationNetworking reads that file's URL from a table of its `URLProtocol`s that only
/// its own protocols fill (`properties[.temporaryFileURL]`, and `as! URL` in the delegate path); `hand(_:to:)`
/// fills it through the runtime's reflection of that stored property. When the table is not where it is looked
/// for (another FoundationNetworking), the download fails with `cannotCreateFile` instead: never a trap.
enum DownloadFile {
    /// Where the table lies in a `URLProtocol` and its type, found once.
    private static let table: (offset: Int, type: any Any.Type)? = {
        var found: (Int, any Any.Type)?
        // `.classType` (1 << 0), a `static var` the stdlib declares without isolation, spelled by its value.
        _ = _forEachField(of: URLProtocol.self, options: _EachFieldOptions(rawValue: 1 << 0)) { name, offset, type, _ in
            guard String(cString: name) == "properties" else { return true }
            found = (offset, type)
            return false
        }
        return found
    }()

    /// Writes `body` to a new temporary file and records it as `loader`'s download; false when it could not.
    static func hand(_ body: Data, to loader: URLProtocol) -> Bool {
        guard let table, let properties = table.type as? any DownloadPropertyTable.Type else { return false }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "CFNetworkDownload_\(UUID().uuidString).tmp")
        guard (try? body.write(to: file)) != nil else { return false }
        let object = Unmanaged.passUnretained(loader).toOpaque()
        return properties.set(file, forKey: "temporaryFileURL", inTableAt: object + table.offset)
    }
}

/// FoundationNetworking's table of a protocol's properties, `[URLProtocol._PropertyKey: Any]`, whose key type is not
/// public: a key is made from its raw value.
protocol DownloadPropertyTable {
    static func set(_ value: Any, forKey rawKey: String, inTableAt address: UnsafeMutableRawPointer) -> Bool
}

extension Dictionary: DownloadPropertyTable where Key: RawRepresentable, Key.RawValue == String, Value == Any {
    static func set(_ value: Any, forKey rawKey: String, inTableAt address: UnsafeMutableRawPointer) -> Bool {
        guard let key = Key(rawValue: rawKey) else { return false }
        address.assumingMemoryBound(to: Self.self).pointee[key] = value
        return true
    }
}

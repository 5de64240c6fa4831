public import Foundation
import OffstageCore

/// `AVAudioSession`: how the app means to use audio. Its category decides whether playing keeps the app running
/// in the background: `.playback` (or `.playAndRecord`) with the session active and the `audio` background mode.
public final class AVAudioSession: Sendable {
    /// `AVAudioSession.Category`, with AVFoundation's raw values.
    public struct Category: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
        public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
        public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
        public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")

        /// Whether audio of this category goes on with the app in the background (with the `audio` mode).
        var playsInBackground: Bool { [.playback, .playAndRecord, .record, .multiRoute].contains(self) }
    }

    /// `AVAudioSession.Mode`.
    public struct Mode: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
        public static let moviePlayback = Mode(rawValue: "AVAudioSessionModeMoviePlayback")
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
    }

    /// `AVAudioSession.CategoryOptions`.
    public struct CategoryOptions: OptionSet, Sendable {
        public var rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
    }

    /// `AVAudioSession.SetActiveOptions`.
    public struct SetActiveOptions: OptionSet, Sendable {
        public var rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

    /// The category, mode and activity, and the players playing now.
    private struct State {
        var category = Category.soloAmbient
        var mode = Mode.default
        var categoryOptions: CategoryOptions = []
        var isActive = false
        var playing: Set<ObjectIdentifier> = []
        /// Whether the system was told that background audio plays (`OffstageBackgroundActivity.audio`).
        var toldSystem = false
    }

    private let state = LockedValue(State())
    private unowned let runtime: AppRuntime

    init(runtime: AppRuntime) { self.runtime = runtime }

    /// The session of the app whose code is running.
    public class func sharedInstance() -> AVAudioSession { AppRuntime.current.audioSession }

    public var category: Category { state.value.category }
    public var mode: Mode { state.value.mode }
    public var categoryOptions: CategoryOptions { state.value.categoryOptions }

    public func setCategory(_ category: Category, mode: Mode = .default, options: CategoryOptions = []) throws {
        state.withValue {
            $0.category = category
            $0.mode = mode
            $0.categoryOptions = options
        }
        tellSystem()
    }

    public func setCategory(_ category: Category, options: CategoryOptions) throws {
        try setCategory(category, mode: .default, options: options)
    }

    public func setMode(_ mode: Mode) throws { state.withValue { $0.mode = mode } }

    /// Activates or deactivates the session; a player plays only in an active session.
    public func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        state.withValue { $0.isActive = active }
        tellSystem()
    }

    /// A player starts or stops: the system hears whether background audio plays now.
    func setPlaying(_ playing: Bool, player: ObjectIdentifier) {
        state.withValue {
            if playing { $0.playing.insert(player) } else { $0.playing.remove(player) }
        }
        tellSystem()
    }

    /// Tells the system when background audio starts or stops: a player plays in an active session whose
    /// category plays in the background (the `audio` mode's work, which keeps the app running while it lasts).
    private func tellSystem() {
        let change: Bool? = state.withValue {
            let playing = $0.isActive && $0.category.playsInBackground && !$0.playing.isEmpty
            guard playing != $0.toldSystem else { return nil }
            $0.toldSystem = playing
            return playing
        }
        guard let change else { return }
        runtime.send(.setBackgroundActivity(OffstageBackgroundActivity.audio.mode, active: change))
    }
}

/// `AVAudioPlayer`, reduced to playing and stopping: no audio is decoded, so a sound plays until it is stopped
/// (as with `numberOfLoops = -1`); while it plays in an active `.playback` session, the app has background audio.
/// Unchecked because of AVFoundation's settable properties (`numberOfLoops`, `volume`, `currentTime`), which the
/// app sets from the thread that owns the player, as on iOS; what the system sees is in `playing`.
public final class AVAudioPlayer: @unchecked Sendable {
    private let session: AVAudioSession
    private let playing = LockedValue(false)
    public let url: URL?
    public let data: Data?
    public var numberOfLoops = 0
    public var volume: Float = 1
    public var currentTime: TimeInterval = 0

    /// A player of the file at `url`, which must exist (as AVFoundation fails on a missing file).
    public init(contentsOf url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        self.url = url
        data = nil
        session = AVAudioSession.sharedInstance()
    }

    public init(data: Data) throws {
        url = nil
        self.data = data
        session = AVAudioSession.sharedInstance()
    }

    public var isPlaying: Bool { playing.value }

    @discardableResult public func prepareToPlay() -> Bool { true }

    /// Starts playing; the session need not be active for the call to succeed, but only an active session's
    /// playing counts as background audio.
    @discardableResult public func play() -> Bool {
        playing.value = true
        session.setPlaying(true, player: ObjectIdentifier(self))
        return true
    }

    public func pause() { halt() }

    public func stop() { halt() }

    private func halt() {
        playing.value = false
        session.setPlaying(false, player: ObjectIdentifier(self))
    }
}

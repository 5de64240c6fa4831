// swift-tools-version: 6.1
// Offstage: an open implementation of the iOS background-execution system.
import Foundation
import PackageDescription

// The daemon's store (GRDB) compiles against the system SQLite: say so before a build fails on 'sqlite3.h'.
#if os(Linux)
    if !["/usr/include/sqlite3.h", "/usr/local/include/sqlite3.h"].contains(where: FileManager.default.fileExists) {
        FileHandle.standardError.write(
            Data(
                ("offstage-daemon needs the SQLite headers (sqlite3.h), not installed: sudo apt-get install "
                    + "libsqlite3-dev (Debian/Ubuntu); the simulator alone builds without: swift build --product "
                    + "offstage\n").utf8))
    }
#endif

/// Settings every Offstage target shares: a small, explicit public surface.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Linker flags that link the Swift runtime and Foundation statically (Linux), for the daemon.
let staticSwiftLinking = [
    "-static-stdlib", "-Xlinker", "--start-group", "-lFoundation", "-lFoundationEssentials",
    "-lFoundationInternationalization", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCollections",
    "-l_FoundationCShims", "-lswift_StringProcessing", "-lswift_RegexParser", "-lswiftSynchronization",
    "-Xlinker", "--end-group",
]

/// The Apple frameworks app code imports, each a thin module of Offstage's own name that re-exports its
/// implementation. Apple's names are free on Linux, but third-party packages test `canImport(UIKit)`,
/// `canImport(os)` or `canImport(Combine)` and would see a module of that very name in the shared build folder;
/// so the modules keep Offstage's names and an app's target maps Apple's onto them (`appleFrameworkAliases`).
let appleFrameworks: [(framework: String, module: String)] = [
    ("UIKit", "OffstageUIKit"), ("BackgroundTasks", "OffstageBackgroundTasks"),
    ("UserNotifications", "OffstageUserNotifications"), ("os", "OffstageOSLog"), ("Combine", "OffstageCombine"),
    ("SwiftUI", "OffstageSwiftUI"), ("AVFoundation", "OffstageAVFoundation"),
]

/// The compiler settings that let a target's unchanged `import UIKit` (and the other frameworks) find Offstage's
/// modules on Linux; on Apple platforms they are not applied and the real frameworks are imported.
let appleFrameworkAliases: [SwiftSetting] = [
    .unsafeFlags(
        appleFrameworks.flatMap { ["-module-alias", "\($0.framework)=\($0.module)"] }, .when(platforms: [.linux]))
]

/// The thin framework modules: each re-exports OffstageKit; Combine re-exports OpenCombine with its Foundation and
/// Dispatch schedulers, and SwiftUI re-exports Combine too (as Apple's does).
let appleFrameworkTargets: [Target] = appleFrameworks.map { framework, module in
    let dependencies: [Target.Dependency] =
        switch framework {
        case "Combine":
            [
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineFoundation", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ]
        case "SwiftUI": ["OffstageKit", "OffstageCombine"]
        default: ["OffstageKit"]
        }
    return .target(
        name: module, dependencies: dependencies, path: "Sources/Frameworks/\(framework)", swiftSettings: strictSettings
    )
}

let package = Package(
    name: "Offstage",
    // Linux is the only platform that builds and works. The macOS minimum below applies to OffstageCore alone,
    // the one target written without Linux APIs (not built on macOS by CI); every other target imports Glibc or
    // interposes ELF symbols (OffstageAppExecution stops with an error on other systems).
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OffstageKit", targets: ["OffstageKit"]),
        .library(name: "OffstageSimulator", targets: ["OffstageSimulator"]),
        .library(name: "OffstageCore", targets: ["OffstageCore"]),
    ] + appleFrameworks.map { .library(name: $0.module, targets: [$0.module]) } + [
        .executable(name: "offstage", targets: ["offstage"]),
        .executable(name: "offstage-daemon", targets: ["offstage-daemon"]),
        .executable(name: "colorfeed", targets: ["ColorFeedApp"]),
        .executable(name: "colorfeed-app", targets: ["ColorFeedDaemonApp"]),
        .executable(name: "offstage-testapp", targets: ["OffstageTestApp"]),
        .executable(name: "offstage-bench", targets: ["OffstageBenchmarks"]),
        .executable(name: "offstage-trial", targets: ["RealCodeTrial"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // The daemon (issue 4): logging, service life cycle with graceful shutdown, the SQLite store.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // Combine's API on Linux, re-exported by the `Combine` module app code imports unchanged.
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
    ],
    targets: [
        .target(
            name: "OffstageCore",
            dependencies: [.product(name: "HeapModule", package: "swift-collections")],
            swiftSettings: strictSettings
        ),
        .target(name: "OffstageProtocol", dependencies: ["OffstageCore"], swiftSettings: strictSettings),
        // Which simulated app a thread runs (the host's record): what OffstageKit reads. It interposes nothing, so
        // apps the daemon runs link it and never see a host.
        .target(name: "OffstageAppContext"),
        // libdispatch's enqueue and wait functions, libc's clocks and sleeps and CoreFoundation's run loop,
        // interposed (ELF, Linux only) in the executables that link OffstageSimulator and nowhere else: on a
        // thread running a simulated app they hand its queued work and clock reads to the host.
        .target(name: "OffstageAppExecution", dependencies: ["OffstageAppContext"]),
        // Makes an `NSObject` subclass from its class alone, as the Objective-C runtime does on iOS (delegates
        // named in the Info.plist or given to `@UIApplicationDelegateAdaptor`).
        .target(name: "OffstageClassFactory"),
        .target(
            name: "OffstageKit",
            dependencies: [
                "OffstageCore", "OffstageProtocol", "OffstageAppContext", "OffstageClassFactory",
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "OffstageSimulator",
            dependencies: [
                "OffstageCore", "OffstageKit", "OffstageAppContext", "OffstageAppExecution",
                .product(name: "Yams", package: "Yams"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ColorFeed",
            dependencies: ["OffstageKit"],
            path: "Examples/ColorFeed/Sources/ColorFeed",
            resources: [.embedInCode("ColorFeed-Info.plist")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "ColorFeedApp",
            dependencies: ["ColorFeed", "OffstageSimulator", "OffstageKit"],
            path: "Examples/ColorFeed/Sources/ColorFeedApp",
            swiftSettings: strictSettings
        ),
        // ColorFeed as the daemon runs it: the app alone, without the simulator and its interposition.
        .executableTarget(
            name: "ColorFeedDaemonApp",
            dependencies: ["ColorFeed", "OffstageKit"],
            path: "Examples/ColorFeed/Sources/ColorFeedDaemonApp",
            swiftSettings: strictSettings
        ),
        // Apps with the classic bugs of background code, and their corrected version, for the explorer (issue 30).
        .target(
            name: "ExplorerExamples",
            dependencies: ["OffstageKit", "OffstageSimulator", "OffstageCore"],
            path: "Examples/ExplorerExamples/Sources/ExplorerExamples",
            // Written as iOS apps are (Swift 5 mode, as ColorFeed is).
            swiftSettings: strictSettings + [.swiftLanguageMode(.v5)]
        ),
        // The daemon's Linux layer (procfs, cgroups, signals, spawning, reaping, device probes) behind
        // `AppProcessHost`, so that the daemon's orchestration is tested with a double.
        .target(
            name: "OffstageLinux",
            dependencies: ["OffstageCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "OffstageDaemon",
            dependencies: [
                "OffstageCore", "OffstageProtocol", "OffstageLinux",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        // The daemon's options and how it runs with them, shared by `offstage daemon` and `offstage-daemon`.
        .target(
            name: "OffstageDaemonCLI",
            dependencies: [
                "OffstageCore", "OffstageDaemon", "OffstageLinux",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The daemon alone: what `offstage daemon` runs when it is installed beside `offstage` (less code mapped).
        .executableTarget(
            name: "offstage-daemon",
            dependencies: [
                "OffstageDaemonCLI", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings,
            // The Swift runtime and Foundation linked in (`swift build --static-swift-stdlib`, for this target
            // alone): a long-running daemon maps only the code it uses, about 25 MB with 100 apps where the
            // shared libraries alone made 28 MB. Release builds only: the test bundle, which links every
            // target, needs the shared runtime that XCTest and Swift Testing use.
            linkerSettings: [.unsafeFlags(staticSwiftLinking, .when(platforms: [.linux], configuration: .release))]
        ),
        .target(
            name: "OffstageCLI",
            dependencies: [
                "OffstageCore", "OffstageSimulator", "ColorFeed", "ExplorerExamples", "OffstageProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.embedInCode("Resources/demo.yaml")],
            swiftSettings: strictSettings
        ),
        // `offstage daemon` runs `offstage-daemon` from beside it; `offstage` itself links no SQLite, so the
        // simulator builds without its headers (`swift build` builds both).
        .executableTarget(name: "offstage", dependencies: ["OffstageCLI"], swiftSettings: strictSettings),
        .executableTarget(
            name: "scheduler-benchmarks",
            dependencies: ["OffstageCore", "OffstageSimulator", "OffstageKit"],
            path: "Benchmarks/SchedulerBenchmarks",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OffstageCoreTests",
            dependencies: [
                "OffstageCore", "OffstageSimulator", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OffstageKitTests",
            dependencies: ["OffstageKit", "OffstageSimulator", "OffstageCore", "OffstageProtocol", "ColorFeed"],
            swiftSettings: strictSettings
        ),
        // The protocol alone: framing, limits, the JSON coders, malformed input.
        .testTarget(
            name: "OffstageProtocolTests",
            dependencies: ["OffstageProtocol", "OffstageCore"],
            swiftSettings: strictSettings
        ),
        // The daemon's Linux layer alone, on this machine's /proc and real child processes.
        .testTarget(name: "OffstageLinuxTests", dependencies: ["OffstageLinux"], swiftSettings: strictSettings),
        // A small app for the daemon's tests: real processes that behave as each test needs.
        .executableTarget(
            name: "OffstageTestApp",
            dependencies: ["OffstageKit"],
            path: "Tests/OffstageTestApp",
            swiftSettings: strictSettings
        ),
        // A scene-based app started with `@main` on its delegate, for a daemon test (issue 13).
        .executableTarget(
            name: "SceneTestApp",
            dependencies: ["OffstageKit"],
            path: "Tests/SceneTestApp",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OffstageDaemonTests",
            dependencies: [
                "offstage", "offstage-daemon", "OffstageTestApp", "SceneTestApp", "RealCodeTrial", "OffstageCore",
                "OffstageProtocol",
                "OffstageDaemon",
                "OffstageLinux", "ColorFeedDaemonApp", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "OffstageBenchmarks",
            dependencies: ["OffstageProtocol", "OffstageCore"],
            path: "Benchmarks/DaemonBenchmarks",
            swiftSettings: strictSettings
        ),
        // Real iOS background code (async/await, Dispatch, OperationQueue…) run in the simulator.
        .testTarget(
            name: "RealCodeTests",
            dependencies: ["OffstageKit", "OffstageSimulator", "OffstageCore", "ColorFeed", "ExplorerExamples"]
                + appleFrameworks.map { .target(name: $0.module) },
            swiftSettings: strictSettings + appleFrameworkAliases
        ),
        // The real-code trial: Swift files dropped in Trial/Apps, imports unchanged, run in a scenario whose apps
        // name their delegate classes (`offstage-trial SCENARIO.yaml`).
        .executableTarget(
            name: "RealCodeTrial",
            dependencies: ["OffstageKit", "OffstageSimulator", "OffstageCore"]
                + appleFrameworks.map { .target(name: $0.module) },
            path: "Trial",
            exclude: ["sample.yaml"],
            swiftSettings: strictSettings + appleFrameworkAliases
        ),
        .testTarget(
            name: "OffstageSimulatorTests",
            // The executables too: the interposition's tests read which of them carry it.
            dependencies: [
                "OffstageSimulator", "OffstageCore", "OffstageCLI", "offstage", "RealCodeTrial", "ColorFeedApp",
                "OffstageTestApp", "SceneTestApp", "ColorFeedDaemonApp",
            ],
            swiftSettings: strictSettings
        ),
    ] + appleFrameworkTargets
)

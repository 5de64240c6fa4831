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

/// The folders of `Trial/Apps` (apps under trial and our own stand-ins), none of them the harness's sources.
let trialAppFolders: [String] = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Trial/Apps")
    return ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted().filter { name in
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isFolder)
            && isFolder.boolValue
    }
}()
/// The real-code trial's apps: each folder `Trial/Apps/<App>/` that holds the public files under trial (fetched by
/// `Trial/fetch-trial.sh`, never committed) is a target `Trial<App>`, compiled as its project compiles it (Swift 5
/// mode, Apple's names aliased); its `StandIns/` are our stand-ins for the app's own types, and each
/// `Modules/<Module>/` is a stand-in for a module of the app's own (`import Shared`), a target `Trial<App><Module>`
/// aliased to that name for this app only. Built only when `OFFSTAGE_TRIAL_APPS` names the app (`found()`).
struct TrialApp {
    /// The app's folder name under `Trial/Apps`.
    let name: String
    /// The app's stand-in modules: name, and the sibling stand-in modules its files import.
    let modules: [(name: String, imports: [String])]

    /// The trial apps to build: those named in `OFFSTAGE_TRIAL_APPS` (comma-separated; `Trial/run-trial.sh` sets
    /// it, one app at a time) whose folder holds a fetched file. None otherwise, so that public files fetched into
    /// `Trial/Apps` (one of which may not compile on Linux) never break the package's own build.
    static func found() -> [TrialApp] {
        let files = FileManager.default
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Trial/Apps")
        let chosen = (ProcessInfo.processInfo.environment["OFFSTAGE_TRIAL_APPS"] ?? "").split(separator: ",")
        let folders = trialAppFolders.filter { name in
            let top = (try? files.contentsOfDirectory(atPath: root.appendingPathComponent(name).path)) ?? []
            return top.contains { $0.hasSuffix(".swift") } && chosen.contains(Substring(name))
        }
        return folders.map { name in
            let modulesURL = root.appendingPathComponent(name).appendingPathComponent("Modules")
            let names = ((try? files.contentsOfDirectory(atPath: modulesURL.path)) ?? []).sorted()
            let modules = names.map { module in
                let folder = modulesURL.appendingPathComponent(module)
                let sources = (files.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter {
                    $0.hasSuffix(".swift")
                }
                let text = sources.compactMap {
                    try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
                }
                let imported = names.filter { other in
                    other != module && text.contains { $0.contains("import \(other)\n") }
                }
                return (name: module, imports: imported)
            }
            return TrialApp(name: name, modules: modules)
        }
    }

    /// The app's target and its stand-in modules' targets.
    var targets: [Target] {
        let aliases: [SwiftSetting] = [
            .unsafeFlags(modules.flatMap { ["-module-alias", "\($0.name)=Trial\(name)\($0.name)"] }),
            .swiftLanguageMode(.v5),
        ]
        let frameworks: [Target.Dependency] =
            ["OffstageKit"] + appleFrameworks.map { .target(name: $0.module) }
        let moduleTargets: [Target] = modules.map { module in
            .target(
                name: "Trial\(name)\(module.name)",
                dependencies: frameworks + module.imports.map { .target(name: "Trial\(name)\($0)") },
                path: "Trial/Apps/\(name)/Modules/\(module.name)",
                swiftSettings: appleFrameworkAliases + aliases)
        }
        let app: Target = .target(
            name: "Trial\(name)",
            dependencies: frameworks + modules.map { .target(name: "Trial\(name)\($0.name)") },
            path: "Trial/Apps/\(name)",
            exclude: modules.isEmpty ? [] : ["Modules"],
            swiftSettings: appleFrameworkAliases + aliases + [
                // An `@main` app delegate names its entry point apart from the harness's `main`.
                .unsafeFlags(["-Xfrontend", "-entry-point-function-name", "-Xfrontend", "trial_\(name)_main"])
            ])
        return [app] + moduleTargets
    }
}

let trialApps = TrialApp.found()

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
        .library(name: "OffstageBenchmarkFixtures", targets: ["OffstageBenchmarkFixtures"]),
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
        // What the scheduler benchmarks set up, shared by `scheduler-benchmarks` and the ordo-one/benchmark suite
        // (`Benchmarks/Suite`, a package of its own so that `swift build` here never builds the benchmark tool).
        .target(
            name: "OffstageBenchmarkFixtures",
            dependencies: ["OffstageCore", "OffstageSimulator"],
            path: "Benchmarks/Fixtures",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "scheduler-benchmarks",
            dependencies: ["OffstageBenchmarkFixtures", "OffstageCore", "OffstageSimulator", "OffstageKit"],
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
        // What the Linux layer's and the daemon's tests share: executables written so that no test's child keeps
        // them busy (they all run in one process).
        .target(name: "OffstageTestSupport", path: "Tests/OffstageTestSupport", swiftSettings: strictSettings),
        // The daemon's Linux layer alone, on this machine's /proc and real child processes.
        .testTarget(
            name: "OffstageLinuxTests", dependencies: ["OffstageLinux", "OffstageTestSupport"],
            swiftSettings: strictSettings),
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
                "OffstageLinux", "ColorFeedDaemonApp", "OffstageTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
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
                + appleFrameworks.map { .target(name: $0.module) } + trialApps.map { .target(name: "Trial\($0.name)") },
            path: "Trial",
            exclude: ["sample.yaml", "fetch-trial.sh", "run-trial.sh", "trial.tsv", "Scenarios"]
                + trialAppFolders.map { "Apps/\($0)" },
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
    ] + appleFrameworkTargets + trialApps.flatMap(\.targets)
)

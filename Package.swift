// swift-tools-version: 6.1
// Offstage: an open implementation of the iOS background-execution system.
import PackageDescription

/// Settings every Offstage target shares: a small, explicit public surface.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Offstage",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OffstageKit", targets: ["OffstageKit"]),
        .library(name: "OffstageSimulator", targets: ["OffstageSimulator"]),
        .library(name: "OffstageCore", targets: ["OffstageCore"]),
        .executable(name: "offstage", targets: ["offstage"]),
        .executable(name: "colorfeed", targets: ["ColorFeedApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "OffstageCore",
            dependencies: [.product(name: "HeapModule", package: "swift-collections")],
            swiftSettings: strictSettings
        ),
        .target(name: "OffstageProtocol", swiftSettings: strictSettings),
        .target(
            name: "OffstageKit",
            dependencies: ["OffstageCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "OffstageSimulator",
            dependencies: [
                "OffstageCore", "OffstageKit",
                .product(name: "Yams", package: "Yams"),
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
        .target(
            name: "OffstageCLI",
            dependencies: [
                "OffstageCore", "OffstageSimulator", "ColorFeed",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.embedInCode("Resources/demo.yaml")],
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "offstage", dependencies: ["OffstageCLI"], swiftSettings: strictSettings),
        .executableTarget(
            name: "scheduler-benchmarks",
            dependencies: ["OffstageCore", "OffstageSimulator"],
            path: "Benchmarks/SchedulerBenchmarks",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OffstageCoreTests",
            dependencies: ["OffstageCore", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OffstageKitTests",
            dependencies: ["OffstageKit", "OffstageSimulator", "OffstageCore", "OffstageProtocol", "ColorFeed"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OffstageSimulatorTests",
            dependencies: ["OffstageSimulator", "OffstageCore", "OffstageCLI"],
            swiftSettings: strictSettings
        ),
    ]
)

// swift-tools-version: 6.1
// Offstage's benchmarks with ordo-one/benchmark, a package of their own beside the project: `swift build` and
// `swift test` in the project's root never resolve nor build the benchmark tool. Run from this folder:
// `swift package benchmark` (see BENCHMARKS.md).
import PackageDescription

let package = Package(
    name: "OffstageBenchmarkSuite",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Offstage", path: "../.."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The core's entry points, the simulated device's month and an evaluation of a small generated trace.
        .executableTarget(
            name: "OffstagePerformance",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OffstageBenchmarkFixtures", package: "Offstage"),
                .product(name: "OffstageCore", package: "Offstage"),
                .product(name: "OffstageSimulator", package: "Offstage"),
            ],
            path: "Benchmarks/OffstagePerformance",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)

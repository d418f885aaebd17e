// swift-tools-version: 6.1
//
// The benchmarks are their own package so the library itself stays free of dependencies: only this
// package pulls in ordo-one/benchmark (the runner) and swift-nio (for comparison, behind the
// NIOComparison trait, which only scripts/benchmarks.sh turns on).

import PackageDescription

let package = Package(
    name: "SchedulableBenchmarks",
    platforms: [.macOS(.v15)],
    traits: [
        .trait(
            name: "ChecksOn",
            description: "Build the library with its ReleaseChecks trait, so @Confined and assertIsolated() are measured with their checks on at -O."
        ),
        .trait(
            name: "NIOComparison",
            description: "Build the swift-nio comparison rows (NIOLoopBound, EventLoop hops) for the published tables: scripts/benchmarks.sh turns it on in a build of its own (.build-nio). Off by default, so CI's builds, whose thresholds are about the library, do not compile swift-nio."
        ),
        .trait(
            name: "PlainWorkload",
            description: "Build the Workload executable with plain stored properties instead of @Confined ones (WORKLOAD_PLAIN): the same program without the checks."
        ),
    ],
    dependencies: [
        .package(
            name: "Schedulable", path: "..",
            traits: [.trait(name: "ReleaseChecks", condition: .when(traits: ["ChecksOn"]))]
        ),
        // The runner needs its malloc interposer for the malloc counts the thresholds are about.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // An opaque per-iteration sink in C: nothing can inline it away (see its header).
        .target(name: "BenchmarkSink"),
        // The measured loops, shared by the benchmark executables and the instruction-count runner.
        .target(
            name: "CheckKernels",
            dependencies: [
                "BenchmarkSink",
                .product(name: "Schedulable", package: "Schedulable"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIOComparison"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIOComparison"])),
            ]
        ),
        // Runs one kernel once, for instruction counts under valgrind (scripts/instructions.sh).
        .executableTarget(name: "KernelRunner", dependencies: ["CheckKernels"]),
        // Three confined services hopping between a serial queue, a thread and main (scripts/workload.sh).
        // Only the library: it builds in seconds in each of its four configurations.
        .executableTarget(
            name: "Workload",
            dependencies: [.product(name: "Schedulable", package: "Schedulable")],
            swiftSettings: [.define("WORKLOAD_PLAIN", .when(traits: ["PlainWorkload"]))]
        ),
        .executableTarget(
            name: "CheckCost",
            dependencies: [
                "CheckKernels",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CheckCost",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SchedulerHops",
            dependencies: [
                "CheckKernels",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SchedulerHops",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

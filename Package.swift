// swift-tools-version: 6.1
//
// Schedulable: thread-affinity checks for objects that belong to a scheduler.
// The library has no package dependencies by design; `Benchmarks/` is a separate package.

import PackageDescription

/// Debug-tier checks (`assertScheduled()`, `@ScheduleProtected`) exist in debug builds, and in release
/// builds of packages that enable the `ReleaseChecks` trait (beta builds). The condition is evaluated
/// when *this* library compiles, so the stored layout of `ScheduleProtected` and whether a check runs
/// always agree (see the "Debug and Release" DocC article).
let checksSettings: [SwiftSetting] = [
    .define("SCHEDULABLE_CHECKS", .when(configuration: .debug)),
    .define("SCHEDULABLE_CHECKS", .when(traits: ["ReleaseChecks"])),
    .define("SCHEDULABLE_DEBUG_BUILD", .when(configuration: .debug)),
]

let package = Package(
    name: "Schedulable",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Schedulable", targets: ["Schedulable"]),
    ],
    traits: [
        .trait(
            name: "ReleaseChecks",
            description: "Keep the debug-tier checks (@ScheduleProtected, assertScheduled) on in release builds, for beta builds."
        ),
    ],
    dependencies: [],
    targets: [
        .target(name: "CSchedulableContext"),
        .target(
            name: "Schedulable",
            dependencies: ["CSchedulableContext"],
            swiftSettings: checksSettings
        ),
        .testTarget(
            name: "SchedulableTests",
            dependencies: ["Schedulable", "CSchedulableContext"],
            swiftSettings: checksSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

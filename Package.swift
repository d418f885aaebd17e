// swift-tools-version: 6.2
//
// Schedulable: thread-affinity checks for objects that belong to a scheduler.
// The library has no package dependencies by design; `Benchmarks/` is a separate package.
//
// 6.2, not 6.1: the code uses `weak let` (SE-0481) and `SendableMetatype` (SE-0470), both Swift 6.2
// (Xcode 26.0 and later).

import PackageDescription

/// Debug-tier checks (`assertIsolated()`, `@Confined`) exist in debug builds, and in release
/// builds of packages that enable the `ReleaseChecks` trait (beta builds). The condition is evaluated
/// when *this* library compiles, so the stored layout of `Confined` and whether a check runs
/// always agree (see the "Debug and Release" DocC article).
///
/// Xcode honours package traits only from 26.4, so the same switch is also an environment variable
/// read when the manifest is evaluated: `SCHEDULABLE_RELEASE_CHECKS=1` (for `xcodebuild`, older Xcode
/// and any build where traits cannot be set). It defines the same condition the trait does.
let releaseChecksFromEnvironment = Context.environment["SCHEDULABLE_RELEASE_CHECKS"] == "1"

let checksSettings: [SwiftSetting] = [
    .define("SCHEDULABLE_CHECKS", .when(configuration: .debug)),
    .define("SCHEDULABLE_CHECKS", .when(traits: ["ReleaseChecks"])),
    .define("SCHEDULABLE_DEBUG_BUILD", .when(configuration: .debug)),
] + (releaseChecksFromEnvironment ? [.define("SCHEDULABLE_CHECKS")] : [])

let package = Package(
    name: "Schedulable",
    // The floor of Swift concurrency (`SerialExecutor`) and of everything else the library needs;
    // newer APIs (executor jobs, `checkIsolated`, `isIsolatingCurrentContext`) are gated with
    // `@available` where they are used.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "Schedulable", targets: ["Schedulable"]),
        .executable(name: "schedulable-demo", targets: ["SchedulableDemo"]),
        // The audit ships as a plugin product so client packages can run `swift package schedule-audit`.
        .plugin(name: "ScheduleAuditPlugin", targets: ["ScheduleAuditPlugin"]),
        .library(name: "SchedulableTesting", targets: ["SchedulableTesting"]),
    ],
    traits: [
        .trait(
            name: "ReleaseChecks",
            description: "Keep the debug-tier checks (@Confined, assertIsolated) on in release builds, for beta builds."
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
        // Test support: imports Testing and XCTest from the toolchain (no package dependency), so the
        // core module never links either.
        .target(
            name: "SchedulableTesting",
            dependencies: ["Schedulable", "CSchedulableTesting"]
        ),
        // A load-time constructor that installs SchedulableTesting's bridge to the test frameworks, so
        // that a violation fails the test that caused it in any test binary that links
        // SchedulableTesting, with no trait or base class (Swift has no load-time hook).
        .target(name: "CSchedulableTesting"),
        // A Swift 5-mode module that calls back on queues of its own: the shapes in which Swift 6 code's
        // isolation checks trap (IsolationCheckTests).
        .target(
            name: "IsolationShapesLegacy",
            path: "Tests/IsolationShapesLegacy",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The migration preview (Testing.md): a Swift 5-mode module with the upcoming feature that emits
        // Swift 6's isolation checks, and the same code without it.
        .target(
            name: "IsolationPreviewSwift5",
            dependencies: ["IsolationShapesLegacy"],
            path: "Tests/IsolationPreviewSwift5",
            swiftSettings: [.swiftLanguageMode(.v5), .enableUpcomingFeature("DynamicActorIsolation")]
        ),
        .target(
            name: "IsolationPlainSwift5",
            dependencies: ["IsolationShapesLegacy"],
            path: "Tests/IsolationPlainSwift5",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "SchedulableTestingTests",
            dependencies: [
                "Schedulable", "SchedulableTesting", "IsolationShapesLegacy", "IsolationPreviewSwift5",
                "IsolationPlainSwift5",
            ],
            swiftSettings: checksSettings
        ),
        // Frames in assembly that stack capture must walk through (a clobbered frame pointer).
        .target(name: "CSchedulableTestSupport", path: "Tests/CSchedulableTestSupport"),
        .testTarget(
            name: "SchedulableTests",
            dependencies: ["Schedulable", "CSchedulableContext", "CSchedulableTestSupport"],
            swiftSettings: checksSettings
        ),
        // A program the main-scheduler tests launch: only a program of its own runs top-level code on
        // the main thread (the test process's main thread is parked in dispatchMain()).
        .executableTarget(
            name: "schedulable-main-probe",
            dependencies: ["Schedulable", "CSchedulableContext", "CSchedulableTestSupport"],
            path: "Tests/SchedulableMainProbe"
        ),
        // One small program per kind of report (`swift run ReportScenarios wrong-context`): the report
        // blocks of the README and the DocC articles are its real output, checked and regenerated by
        // .ci/check-reports. A target of this package, not a fixture package, so CI builds it with the
        // library it already built (and with the ThreadSanitizer build it already has).
        .executableTarget(
            name: "ReportScenarios",
            dependencies: ["Schedulable"],
            path: "Tests/ReportScenarios"
        ),
        // The audit's logic lives in a plain target so it can be unit-tested; the plugin only gathers
        // symbol graphs and runs `schedule-audit-tool`. None of them depends on Schedulable: the
        // audit reads symbol graphs, so it also works on packages built against other versions.
        .target(name: "ScheduleAuditCore"),
        .executableTarget(name: "schedule-audit-tool", dependencies: ["ScheduleAuditCore"]),
        .plugin(
            name: "ScheduleAuditPlugin",
            capability: .command(
                intent: .custom(
                    verb: "schedule-audit",
                    description: "Report members of ConfinedObject classes that the runtime checks cannot see."
                )
            ),
            dependencies: ["schedule-audit-tool"]
        ),
        .testTarget(name: "ScheduleAuditCoreTests", dependencies: ["ScheduleAuditCore"]),
        // The upload-scenario demo (`swift run schedulable-demo`). It may use Foundation (for the main
        // run loop); the library may not.
        .executableTarget(name: "SchedulableDemo", dependencies: ["Schedulable"]),
        .testTarget(name: "SchedulableDemoTests", dependencies: ["SchedulableDemo", "Schedulable"]),
    ],
    swiftLanguageModes: [.v6]
)

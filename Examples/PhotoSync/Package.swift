// swift-tools-version: 6.2
//
// PhotoSync: a small app whose services belong to schedulers — written, as existing code is, without
// saying which. Its owners are found from a run of its tests (`Confinement.observed()`, then
// `schedule-audit propose` and `apply`): the three-step workflow of the "Adopting in an Existing
// Codebase" article, run by `.ci/check-adoption`.
//
// It uses the library beside it in this repository (`../..`).

import PackageDescription

let package = Package(
    name: "PhotoSync",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    dependencies: [
        .package(name: "Schedulable", path: "../.."),
    ],
    targets: [
        .target(name: "PhotoSync", dependencies: [.product(name: "Schedulable", package: "Schedulable")]),
        .testTarget(
            name: "PhotoSyncTests",
            dependencies: ["PhotoSync", .product(name: "SchedulableTesting", package: "Schedulable")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

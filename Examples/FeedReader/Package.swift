// swift-tools-version: 6.2
//
// FeedReader: an app written as most existing Swift code is — state owned by raw serial
// `DispatchQueue`s, reached with `queue.sync { … }`, an XCTest suite whose test methods run on the main
// thread, no library types and no `handOff(to:)` — with one planted bug. `.ci/check-adoption` runs
// adopt → observe → propose → apply → enforce on a copy of it (issue 47); its README states the
// proposal the workflow must reach.
//
// The sources do not use Schedulable: the dependency is here for what `adopt` and `apply` write, and
// SchedulableTesting makes a violation fail the XCTest that caused it.

import PackageDescription

let package = Package(
    name: "FeedReader",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    dependencies: [
        .package(name: "Schedulable", path: "../.."),
    ],
    targets: [
        .target(name: "FeedReader", dependencies: [.product(name: "Schedulable", package: "Schedulable")]),
        .testTarget(
            name: "FeedReaderTests",
            dependencies: ["FeedReader", .product(name: "SchedulableTesting", package: "Schedulable")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

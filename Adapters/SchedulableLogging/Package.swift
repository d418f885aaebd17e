// swift-tools-version: 6.2
//
// SchedulableLogging: a swift-log adapter for Schedulable. Violations go to a `Logger`, every report
// field as metadata.
//
// A package of its own so that Schedulable itself has no dependencies. SwiftPM takes a package only from
// the root of a repository, so this folder is also published as its own repository,
// https://github.com/schedulable/schedulable-logging (RELEASING.md has the `git subtree split` steps).
// The same manifest serves both places: inside the Schedulable repository it uses the library beside it
// (`../..`), so a change to both is built and tested together; published alone, it depends on the
// released library by URL.
//
// 6.2: the version Schedulable itself needs (Xcode 26.0 or later).

import Foundation
import PackageDescription

/// Whether this package sits in `Adapters/SchedulableLogging` of a Schedulable checkout. The manifest
/// reads the file, which SwiftPM's manifest sandbox allows (it denies writes and the network only);
/// the name check keeps an unrelated package two folders up from being taken for the library.
let isInsideTheSchedulableRepository: Bool = {
    let manifest = URL(fileURLWithPath: Context.packageDirectory)
        .appendingPathComponent("../../Package.swift").standardizedFileURL
    guard let text = try? String(contentsOf: manifest, encoding: .utf8) else { return false }
    return text.contains("name: \"Schedulable\",")
}()

let schedulable: Package.Dependency = isInsideTheSchedulableRepository
    ? .package(name: "Schedulable", path: "../..")
    : .package(url: "https://github.com/schedulable/schedulable", from: "0.1.0")

let package = Package(
    name: "SchedulableLogging",
    // Schedulable's floor; swift-log asks for no more.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "SchedulableLogging", targets: ["SchedulableLogging"]),
    ],
    dependencies: [
        schedulable,
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "SchedulableLogging",
            dependencies: [
                .product(name: "Schedulable", package: "Schedulable"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SchedulableLoggingTests",
            dependencies: ["SchedulableLogging", .product(name: "Logging", package: "swift-log")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.1
//
// A swift-log adapter for Schedulable, kept in a package of its own so that the library itself has no
// dependencies: violations go to a `Logger`, every report field as metadata.

import PackageDescription

let package = Package(
    name: "SchedulableLogging",
    products: [
        .library(name: "SchedulableLogging", targets: ["SchedulableLogging"]),
    ],
    dependencies: [
        .package(name: "Schedulable", path: "../.."),
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

// swift-tools-version: 6.2
//
// The audit's front end held to the real parser. A package of its own, never in the library's graph:
// the library has no package dependencies, and this one takes swift-syntax.
import PackageDescription

let package = Package(
    name: "ScheduleAuditOracle",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "602.0.0"),
    ],
    targets: [
        .target(name: "ScheduleAuditCore"),
        .executableTarget(
            name: "swift-audit-oracle",
            dependencies: [
                "ScheduleAuditCore",
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

import Foundation
@testable import ScheduleAuditCore

/// Source snippets and observation files written into a fresh temporary directory, for the `adopt`
/// and `claims` subcommands, which read real directories.
struct TemporarySources {
    let root: String

    /// Writes each `relative path: text` below a new directory.
    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("schedule-audit-src-\(UUID().uuidString)").path
        for (relative, text) in files {
            try write(relative, text)
        }
    }

    func write(_ relative: String, _ text: String) throws {
        let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func path(_ relative: String) -> String { root + "/" + relative }

    func read(_ relative: String) throws -> String { try String(contentsOfFile: path(relative), encoding: .utf8) }

    /// `adopt` over this directory, through the program's entry point.
    func adopt(_ arguments: String...) -> (standardOutput: String, standardError: String, status: Int32) {
        AuditCommand.main(arguments: ["adopt"] + arguments + ["--sources", root])
    }

    /// The plan alone, for the notes.
    func plan(_ typeName: String) throws -> AdoptionPlan {
        try AdoptionPlan(typeName: typeName, files: SwiftSources.load(directories: [root]))
    }

    /// The text a dry-run plan would write into `relative`.
    func adopted(_ typeName: String, file relative: String = "A.swift") throws -> String {
        try plan(typeName).files.first { $0.path == path(relative) }?.text ?? read(relative)
    }
}

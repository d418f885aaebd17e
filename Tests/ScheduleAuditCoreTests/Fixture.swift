import Foundation
@testable import ScheduleAuditCore

/// The fixture package under `Tests/Fixtures/AuditFixture`: sources, and the trimmed symbol graphs that
/// `regenerate-symbol-graphs.sh` produced from them (their paths start with `/fixture/`).
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/AuditFixture")

    static func graphs(_ kind: String) throws -> [SymbolGraph] {
        try SymbolGraph.loadDirectory(directory.appendingPathComponent("symbol-graphs/\(kind)"))
    }

    static func path(_ file: String) -> String {
        "/fixture/Sources/AuditFixture/\(file)"
    }

    /// Reads `/fixture/…` paths from the fixture directory; `edit` may change a file's text first, so a
    /// test can show that a finding appears when the code it depends on goes away.
    static func reader(edit: @escaping @Sendable (String, String) -> String = { _, text in text })
        -> @Sendable (String) -> String?
    {
        { path in
            guard path.hasPrefix("/fixture/") else { return nil }
            let local = directory.appendingPathComponent(String(path.dropFirst("/fixture/".count)))
            return (try? String(contentsOf: local, encoding: .utf8)).map { edit(path, $0) }
        }
    }

    static func audit(
        context: Bool = true, edit: @escaping @Sendable (String, String) -> String = { _, text in text }
    ) throws -> AuditReport {
        ScheduleAuditor(
            moduleGraphs: try graphs("module"), contextGraphs: context ? try graphs("context") : [],
            readSource: reader(edit: edit)
        ).run()
    }
}

import Foundation

/// The findings of one run over one or more modules, in the two output formats.
public struct AuditOutput: Codable, Equatable, Sendable {
    /// The output format.
    public enum Format: String, Sendable, CaseIterable {
        /// `path:line:column: warning: …` lines that compilers, editors and CI annotate.
        case text
        /// One JSON document with the same findings.
        case json
    }

    /// Format version of the JSON document; bumped when a field changes meaning.
    public var version = 1
    /// The total number of findings over all modules.
    public var findingCount: Int
    /// One report per audited module, in the order they were given.
    public var modules: [AuditReport]

    /// Combines the reports of a run.
    /// - Parameter modules: One report per audited module.
    public init(modules: [AuditReport]) {
        self.modules = modules
        findingCount = modules.reduce(0) { $0 + $1.findings.count }
    }

    /// Renders the output.
    /// - Parameter format: ``Format/text`` or ``Format/json``.
    /// - Returns: The text to print, ending in a newline.
    public func rendered(as format: Format) -> String {
        switch format {
        case .text:
            var lines: [String] = []
            for report in modules {
                for finding in report.findings {
                    let location = "\(finding.path):\(finding.line):\(finding.column)"
                    lines.append("\(location): warning: \(finding.message) [\(finding.kind.rawValue)]")
                    if let note = finding.note {
                        lines.append("\(location): note: \(note)")
                    }
                }
                let classes = report.protectableTypes.count
                lines.append(
                    "schedule-audit: module '\(report.module)': \(classes) ConfinedObject \(classes == 1 ? "class" : "classes"), \(report.findings.count) \(report.findings.count == 1 ? "finding" : "findings")"
                )
            }
            return lines.joined(separator: "\n") + "\n"
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            // Encoding plain structs of strings and integers cannot fail.
            let data = (try? encoder.encode(self)) ?? Data()
            return String(decoding: data, as: UTF8.self) + "\n"
        }
    }
}

/// What `apply` would print and change: compiler-format diagnostics and one-line edits.
struct ApplyPlan: Sendable {
    /// One `path:line:column: severity: message` line.
    struct Diagnostic: Equatable, Sendable {
        enum Severity: String, Sendable {
            case error, warning, note
        }

        var path: String
        /// 1-based.
        var line: Int
        /// 1-based UTF-8 column.
        var column: Int
        var severity: Severity
        var message: String

        var rendered: String {
            "\(path):\(line):\(column): \(severity.rawValue): \(message)"
        }
    }

    /// The replacement of one whole line; `old` is the line as read, checked again before writing.
    struct LineEdit: Equatable, Sendable {
        var path: String
        /// 1-based.
        var line: Int
        var old: String
        var new: String
    }

    var diagnostics: [Diagnostic] = []
    var edits: [LineEdit] = []

    /// Whether an edit was refused (an `error:` diagnostic): then `--apply` writes nothing.
    var hasErrors: Bool {
        diagnostics.contains { $0.severity == .error }
    }
}

/// A unified diff of line replacements, three lines of context, as `diff -u` prints it.
enum UnifiedDiff {
    /// - Parameters:
    ///   - path: The file, as shown after `a/` and `b/`.
    ///   - lines: The file's lines before the edits.
    ///   - edits: Replacements in this file (1-based lines, at most one per line).
    static func render(path: String, lines: [String], edits: [ApplyPlan.LineEdit]) -> String {
        let changed = Dictionary(edits.map { ($0.line - 1, $0.new) }) { first, _ in first }
        let indices = changed.keys.sorted()
        guard !indices.isEmpty else { return "" }
        // Group edits whose contexts touch into one hunk.
        var hunks: [ClosedRange<Int>] = []
        for index in indices {
            let range = max(0, index - 3)...min(lines.count - 1, index + 3)
            if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                hunks.append(range)
            }
        }
        var out = "--- a/\(path)\n+++ b/\(path)\n"
        for hunk in hunks {
            // Replacements keep the line count, so both sides of a hunk have the same start and length.
            out += "@@ -\(hunk.lowerBound + 1),\(hunk.count) +\(hunk.lowerBound + 1),\(hunk.count) @@\n"
            for index in hunk {
                if let new = changed[index] {
                    out += "-\(lines[index])\n+\(new)\n"
                } else {
                    out += " \(lines[index])\n"
                }
            }
        }
        return out
    }
}

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

extension EditedSource {
    /// A file whose lines `edits` replace (`apply` changes one expression on a line, not an insertion).
    init(path: String, lines: [String], edits: [ApplyPlan.LineEdit]) {
        self.path = path
        original = lines
        var edited = lines
        for edit in edits where edit.line >= 1 && edit.line <= lines.count {
            edited[edit.line - 1] = edit.new
        }
        self.edited = edited
    }
}

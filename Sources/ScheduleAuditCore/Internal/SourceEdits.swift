import Foundation

/// A text inserted into a file at a 0-based line and UTF-8 column (the tokenizer's positions); the
/// text may contain newlines. `adopt` only ever inserts, so an edit can never overlap another.
struct SourceInsertion: Equatable, Sendable {
    var line: Int
    var column: Int
    var text: String
}

/// A file's text as lines, the insertions applied to it, and the unified diff between the two.
struct EditedSource: Sendable {
    let path: String
    let original: [String]
    /// For each original line, what it became: itself, or itself with insertions (maybe several lines).
    let edited: [String]

    /// Applies the insertions; at one position they keep their order.
    init(path: String, text: String, insertions: [SourceInsertion]) {
        self.path = path
        original = text.components(separatedBy: "\n")
        var lines = original.map { Array($0.utf8) }
        let ordered = insertions.enumerated().sorted {
            ($0.element.line, $0.element.column, $1.offset) > ($1.element.line, $1.element.column, $0.offset)
        }
        for (_, insertion) in ordered where insertion.line < lines.count {
            let column = min(insertion.column, lines[insertion.line].count)
            lines[insertion.line].insert(contentsOf: Array(insertion.text.utf8), at: column)
        }
        edited = lines.map { String(decoding: $0, as: UTF8.self) }
    }

    /// What an edited line becomes when the line is removed (no source line is this text).
    static let removedLine = "\u{0}schedule-audit: removed"

    /// The whole new text.
    var text: String { edited.filter { $0 != Self.removedLine }.joined(separator: "\n") }

    /// Whether anything changed.
    var isChanged: Bool { edited != original }

    /// The change as a unified diff (`--- a/path`, `+++ b/path`, hunks with three lines of context).
    func unifiedDiff(context: Int = 3) -> String {
        // Each original line becomes a run of diff rows; an insertion of whole lines before or after an
        // unchanged line shows as added lines around it, not as the line removed and added back.
        var rows: [(mark: Character, text: String)] = []
        // The empty string after a final newline is not a line.
        let count = original.last == "" && edited.last == "" ? original.count - 1 : original.count
        for (index, old) in original[..<count].enumerated() {
            let new = edited[index].components(separatedBy: "\n")
            if edited[index] == Self.removedLine {
                rows.append(("-", old))
            } else if new == [old] {
                rows.append((" ", old))
            } else if new.last == old {
                rows += new.dropLast().map { ("+", $0) } + [(" ", old)]
            } else if new.first == old {
                rows += [(" ", old)] + new.dropFirst().map { ("+", $0) }
            } else {
                rows += [("-", old)] + new.map { ("+", $0) }
            }
        }
        // Within each run of changed rows, the removed lines come first, as diff tools print them.
        var start = 0
        while start < rows.count {
            guard rows[start].mark != " " else { start += 1; continue }
            let end = rows[start...].firstIndex { $0.mark == " " } ?? rows.count
            let run = rows[start..<end]
            rows.replaceSubrange(start..<end, with: run.filter { $0.mark == "-" } + run.filter { $0.mark == "+" })
            start = end
        }
        let changed = rows.indices.filter { rows[$0].mark != " " }
        guard !changed.isEmpty else { return "" }
        // Hunks: changed rows with their context, merged where the contexts touch.
        var ranges: [ClosedRange<Int>] = []
        for row in changed {
            let range = max(0, row - context)...min(rows.count - 1, row + context)
            if let last = ranges.last, range.lowerBound <= last.upperBound + 1 {
                ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                ranges.append(range)
            }
        }
        // `a/` and `b/` before a relative path, as `git apply` reads it; an absolute path as it is.
        let (old, new) = path.hasPrefix("/") ? (path, path) : ("a/" + path, "b/" + path)
        var output = "--- \(old)\n+++ \(new)\n"
        for range in ranges {
            let hunk = rows[range]
            let oldStart = (rows[..<range.lowerBound].filter { $0.mark != "+" }.count) + 1
            let newStart = (rows[..<range.lowerBound].filter { $0.mark != "-" }.count) + 1
            let oldCount = hunk.filter { $0.mark != "+" }.count
            let newCount = hunk.filter { $0.mark != "-" }.count
            output += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
            output += hunk.map { "\($0.mark)\($0.text)\n" }.joined()
        }
        return output
    }
}

/// The Swift files of the source directories a subcommand reads.
enum SwiftSources {
    /// Every `*.swift` file below each directory (hidden directories and `.build` skipped), sorted by
    /// path, each as (path as the user would write it: the directory as given, then the relative path;
    /// text).
    static func load(directories: [String]) throws -> [(path: String, text: String)] {
        var files: [(path: String, text: String)] = []
        var seen: Set<String> = []
        for directory in directories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw AuditError("source directory '\(directory)' does not exist; pass '--sources <dir>'")
            }
            let relatives = (FileManager.default.subpaths(atPath: directory) ?? []).filter { relative in
                relative.hasSuffix(".swift") && !relative.split(separator: "/").contains { $0.hasPrefix(".") }
            }
            for relative in relatives.sorted() {
                let path = directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
                // A directory given twice, or inside another one given: each file once.
                guard seen.insert(path).inserted else { continue }
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw AuditError("cannot read '\(path)' as UTF-8 text")
                }
                files.append((path, text))
            }
        }
        return files
    }
}

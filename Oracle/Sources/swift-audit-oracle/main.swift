import Foundation
import SwiftParser
import SwiftSyntax
@testable import ScheduleAuditCore

// swift-audit-oracle [--known FILE] [--only FILE] [--list N] DIR…
//
// Compares the audit's front end with swift-syntax's parser, declaration by declaration, over every
// `*.swift` file below each DIR (hidden folders and `.build*` skipped), and checks every edit `adopt`
// would make there. Prints what it compared and each disagreement (the first N, default 40), as
// `path:line:column: category: parser … · front end …` with paths relative to the DIR's parent.
//
// --known FILE: the disagreements known and not yet fixed, one rendered line each; the run fails on
// any other, and on a known one that no longer occurs (so the file stays true). Without it, the run
// fails on any disagreement.
//
// --only FILE: path prefixes, one a line (`#` comments), as paths are printed; only the files under
// one of them are compared, and only the known disagreements under one of them are expected (CI's
// subset, Oracle/ci-subset.txt). Exit status: 0 agreed, 1 disagreed, 2 bad arguments.

var arguments = CommandLine.arguments.dropFirst()
var knownPath: String?
var onlyPath: String?
var listLimit = 40
var roots: [String] = []
while let argument = arguments.popFirst() {
    switch argument {
    case "--known": knownPath = arguments.popFirst()
    case "--only": onlyPath = arguments.popFirst()
    case "--list": listLimit = arguments.popFirst().flatMap(Int.init) ?? listLimit
    case _ where argument.hasPrefix("-"):
        FileHandle.standardError.write(Data("swift-audit-oracle: unknown argument '\(argument)'; accepted: --known FILE, --only FILE, --list N, DIR…\n".utf8))
        exit(2)
    default: roots.append(argument)
    }
}
guard !roots.isEmpty else {
    FileHandle.standardError.write(Data("swift-audit-oracle: no directory to compare; pass one or more\n".utf8))
    exit(2)
}

/// The non-comment lines of a list file (`--known`, `--only`).
func lines(of path: String) -> [String] {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init).filter {
        !$0.hasPrefix("#") && !$0.isEmpty
    }
}
let only = onlyPath.map(lines(of:))
if let onlyPath, only?.isEmpty != false {
    FileHandle.standardError.write(Data("swift-audit-oracle: no path prefix in '\(onlyPath)'\n".utf8))
    exit(2)
}
/// Whether a file (its path as printed) is one to compare.
func isSelected(_ shown: String) -> Bool { only.map { $0.contains { shown.hasPrefix($0) } } ?? true }
// Each prefix must select a file: a path renamed in the corpus would otherwise leave CI comparing less.
var unmatched = Set(only ?? [])

let started = Date()
var totals = (files: 0, lines: 0, skipped: 0, types: 0, members: 0, bodies: 0)
var skippedFiles: [String] = []
var disagreements: [Disagreement] = []
var edits = EditCheck()

for root in roots {
    let base = URL(fileURLWithPath: root).standardizedFileURL
    let parent = base.deletingLastPathComponent().path
    let enumerator = FileManager.default.enumerator(atPath: base.path)
    var relatives: [String] = []
    while let relative = enumerator?.nextObject() as? String {
        let parts = relative.split(separator: "/")
        if parts.contains(where: { $0.hasPrefix(".") }) { continue }
        if relative.hasSuffix(".swift") { relatives.append(relative) }
    }
    for relative in relatives.sorted() {
        let full = base.path + "/" + relative
        let shown = String((base.path + "/" + relative).dropFirst(parent.count + 1))
        guard isSelected(shown) else { continue }
        unmatched = unmatched.filter { !shown.hasPrefix($0) }
        guard let text = try? String(contentsOfFile: full, encoding: .utf8) else { continue }
        totals.files += 1
        totals.lines += text.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let tree = Parser.parse(source: text)
        // The front end reads what the compiler accepted: a file the parser rejects (a test fixture of
        // invalid code) is no question for it.
        if tree.hasError {
            totals.skipped += 1
            skippedFiles.append(shown)
            continue
        }
        let parser = ParserFacts(tree: tree, path: shown).facts
        let file = SourceFile(path: shown, text: text)
        let frontEnd = FrontEndFacts(file: file).facts
        disagreements += parser.disagreements(with: frontEnd, path: shown)
        for key in parser.entries.keys where frontEnd.entries[key] != nil {
            if key.hasPrefix("type ") { totals.types += 1 }
            if key.hasPrefix("member ") { totals.members += 1 }
            if key.hasPrefix("statements ") { totals.bodies += 1 }
        }
        let classes = file.typeDeclarations().filter { $0.kind == .class }.map(\.qualifiedName)
        edits.check(path: shown, text: text, tree: tree, classes: classes)
    }
}
disagreements += edits.problems
// A refusal is no disagreement: the front end declines to put a guard where the parser sees it could,
// and `adopt` says so in a note and edits nothing. Counted apart, so that both numbers stay visible.
let refusals = disagreements.filter { $0.field == "verdict" && $0.frontEnd == "refuse" }
disagreements.removeAll { $0.field == "verdict" && $0.frontEnd == "refuse" }

let seconds = Date().timeIntervalSince(started)
print("oracle: \(totals.files) files, \(totals.lines) lines; \(totals.skipped) skipped (the parser finds errors in them)")
print("oracle: compared \(totals.types + totals.members) declarations (\(totals.types) types and extensions, \(totals.members) members) and \(totals.bodies) bodies' statements")
print("oracle: adopt planned for \(edits.planned) classes (\(edits.refused) refused with an error), \(edits.edits) edits; \(edits.problems.count) edited files or declarations wrong (below)")
print("oracle: \(refusals.count) bodies where the front end refuses a guard the parser sees a place for" + (refusals.isEmpty ? "" : ":"))
for refusal in refusals.prefix(listLimit) { print("  " + refusal.rendered) }
let rendered = disagreements.map(\.rendered)
var byCategory: [String: Int] = [:]
for disagreement in disagreements { byCategory[disagreement.category, default: 0] += 1 }
print("oracle: \(disagreements.count) disagreements" + (byCategory.isEmpty ? "" : ": " + byCategory.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
for line in rendered.prefix(listLimit) { print("  " + line) }
if rendered.count > listLimit { print("  … and \(rendered.count - listLimit) more (--list N)") }
print("oracle: \(String(format: "%.1f", seconds)) s")

var failed = !disagreements.isEmpty || !unmatched.isEmpty
for prefix in unmatched.sorted() { print("oracle: '\(prefix)' of \(onlyPath ?? "") selects no file") }
if let knownPath {
    // Only the lines about the files compared: a run over a subset leaves the others unjudged.
    let compared = Set(roots.map { URL(fileURLWithPath: $0).standardizedFileURL.lastPathComponent })
    let known = Set(lines(of: knownPath).filter { compared.contains(String($0.prefix { $0 != "/" })) && isSelected($0) })
    let found = Set(rendered)
    let new = found.subtracting(known)
    let gone = known.subtracting(found)
    for line in new.sorted() { print("oracle: new disagreement: \(line)") }
    for line in gone.sorted() { print("oracle: fixed, remove it from \(knownPath): \(line)") }
    failed = !new.isEmpty || !gone.isEmpty || !unmatched.isEmpty
    print("oracle: \(known.count) known disagreements, \(new.count) new, \(gone.count) fixed")
}
exit(failed ? 1 : 0)

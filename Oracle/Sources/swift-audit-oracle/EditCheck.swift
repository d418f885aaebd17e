import SwiftParser
import SwiftSyntax
@testable import ScheduleAuditCore

/// Checks every edit `adopt` would make in a file: the edited file parses with no error, and every
/// declaration that no edit is inside reads exactly as before.
struct EditCheck {
    /// Classes planned, classes adopt refused (with its error), edits made.
    var planned = 0
    var refused = 0
    var edits = 0
    var problems: [Disagreement] = []

    /// Plans `adopt` for each class the file declares (only this file as its sources) and checks the result.
    mutating func check(path: String, text: String, tree: SourceFileSyntax, classes: [String]) {
        let original = Declarations(tree: tree)
        let lineStarts = Self.lineStarts(of: text)
        for name in Set(classes).sorted() {
            let plan: AdoptionPlan
            do {
                plan = try AdoptionPlan(typeName: name, files: [(path, text)])
            } catch {
                refused += 1
                continue
            }
            planned += 1
            edits += plan.editCount
            for edited in plan.files {
                let newText = edited.text
                let newTree = Parser.parse(source: newText)
                if let error = FirstParseError(tree: newTree).found {
                    let location = SourceLocationConverter(fileName: path, tree: newTree).location(for: error.position)
                    problems.append(Disagreement(
                        path: path, key: "adopt \(location.line - 1):\(location.column - 1)", field: "parse",
                        parser: "error '\(error.message)' in the file adopt '\(name)' wrote", frontEnd: "\(plan.editCount) edits"
                    ))
                }
                let changed = Self.changedLines(of: edited, lineStarts: lineStarts)
                let after = Declarations(tree: newTree).counts
                var remaining = after
                for declaration in original.all where !changed.contains(where: { declaration.range.overlaps($0) }) {
                    if let count = remaining[declaration.text], count > 0 {
                        remaining[declaration.text] = count - 1
                    } else {
                        let start = SourceLocationConverter(fileName: path, tree: tree).location(for: AbsolutePosition(utf8Offset: declaration.range.lowerBound))
                        problems.append(Disagreement(
                            path: path, key: "adopt \(start.line - 1):\(start.column - 1)", field: "untargeted",
                            parser: "a declaration no edit of adopt '\(name)' is in changed", frontEnd: "edited it"
                        ))
                    }
                }
            }
        }
    }

    /// The UTF-8 ranges of the lines adopt changed, in the original text: a declaration that touches
    /// none of them is one no edit targeted.
    private static func changedLines(of edited: EditedSource, lineStarts: [Int]) -> [ClosedRange<Int>] {
        edited.original.indices.compactMap { index in
            guard index < edited.edited.count, edited.edited[index] != edited.original[index] else { return nil }
            let end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : Int.max
            return lineStarts[index]...max(lineStarts[index], end)
        }
    }

    static func lineStarts(of text: String) -> [Int] {
        var starts = [0]
        for (offset, byte) in text.utf8.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        return starts
    }
}

/// Every declaration of a file outside function bodies (top level, members, nested members), with its
/// text and its range (first to last byte, both included).
struct Declarations {
    struct Entry {
        var range: ClosedRange<Int>
        var text: String
    }

    private(set) var all: [Entry] = []

    init(tree: SourceFileSyntax) {
        for item in tree.statements {
            if let decl = item.item.as(DeclSyntax.self) { add(decl) }
        }
    }

    var counts: [String: Int] { all.reduce(into: [:]) { $0[$1.text, default: 0] += 1 } }

    private mutating func add(_ decl: DeclSyntax) {
        let start = decl.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = max(start, decl.endPositionBeforeTrailingTrivia.utf8Offset - 1)
        all.append(Entry(range: start...end, text: decl.trimmedDescription))
        if let directive = decl.as(IfConfigDeclSyntax.self) {
            for clause in directive.clauses {
                if case .decls(let members)? = clause.elements { for member in members { add(member.decl) } }
                if case .statements(let items)? = clause.elements {
                    for item in items { if let inner = item.item.as(DeclSyntax.self) { add(inner) } }
                }
            }
        }
        if let group = decl.asProtocol(DeclGroupSyntax.self) {
            for member in group.memberBlock.members { add(member.decl) }
        }
    }
}

/// The first error the parser recovered from in a tree: a token it had to invent (`missing '}'`), a
/// token the lexer found malformed (an unterminated string), or text it could not place (`unexpected
/// …`). Every parse error leaves one of these in the tree (each sets `hasError` on its ancestors); the
/// last line keeps the check whole if a later swift-syntax adds another. Reading them here spares the
/// oracle's build SwiftParserDiagnostics and its two dependencies, whose messages only reword the place.
final class FirstParseError: SyntaxAnyVisitor {
    private(set) var found: (position: AbsolutePosition, message: String)?

    init(tree: SourceFileSyntax) {
        super.init(viewMode: .all)
        guard tree.hasError else { return }
        walk(tree)
        if found == nil { found = (tree.positionAfterSkippingLeadingTrivia, "an error of no missing or unexpected node") }
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        if found == nil, token.hasError {
            found = (token.positionAfterSkippingLeadingTrivia, token.presence == .missing ? "missing '\(token.text)'" : "malformed '\(token.text)'")
        }
        return .skipChildren
    }

    override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
        if found == nil { found = (node.positionAfterSkippingLeadingTrivia, "unexpected '\(node.trimmedDescription)'") }
        return .skipChildren
    }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        found == nil && node.hasError ? .visitChildren : .skipChildren
    }
}

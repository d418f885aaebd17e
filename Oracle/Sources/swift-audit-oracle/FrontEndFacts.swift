@testable import ScheduleAuditCore

/// The audit's front end's facts about a file, from the same scans `adopt`, `claims` and the audit
/// use (`SourceFile.typeDeclarations`, `members`, `statementStarts`, `guardPlacement`).
struct FrontEndFacts {
    let file: SourceFile
    private(set) var facts = Facts()

    init(file: SourceFile) {
        self.file = file
        for type in file.typeDeclarations() { add(type) }
    }

    private func at(_ token: Int) -> String { "\(file.tokens[token].line):\(file.tokens[token].column)" }

    private mutating func add(_ type: TypeDeclaration) {
        facts.add("type \(at(type.keyword))", [
            "kind": type.kind.rawValue, "name": type.name, "qualified": type.qualifiedName, "nameAt": at(type.nameToken),
            "inherits": type.inheritedNames(in: file).joined(separator: ", "),
            "body": "\(at(type.openBrace))-\(at(type.closeBrace))",
        ])
        for member in file.members(open: type.openBrace, close: type.closeBrace) { add(member) }
    }

    private mutating func add(_ member: MemberDeclaration) {
        var fields: [String: String] = [
            "keyword": at(member.keyword),
            "attributes": member.attributes.sorted().joined(separator: " "),
            "modifiers": member.modifiers.sorted().joined(separator: " "),
            "end": at(max(member.start, member.end - 1)),
        ]
        let name = file.name(of: member) ?? "-"
        switch member.kind {
        case .variable, .constant:
            fields["kind"] = member.kind == .variable ? "variable" : "constant"
            fields["name"] = name
            fields["several"] = String(member.declaresSeveral)
            fields["storage"] = member.computedAccessors == nil ? "stored" : "computed"
        case .function, .initializer, .deinitializer, .subscript:
            fields["kind"] = "\(member.kind)"
            fields["name"] = member.kind == .function ? name : "-"
            if member.kind != .deinitializer { fields["display"] = file.displayName(of: member) }
            fields["body"] = member.body.map { "\(at($0.open))-\(at($0.close))" } ?? "none"
            if let body = member.body, member.kind != .subscript {
                let starts = file.statementStarts(in: (body.open + 1)..<body.close)
                facts.add("statements \(at(body.open))", ["starts": starts.map(at).joined(separator: " ")])
                if member.kind == .function {
                    facts.add("implicit \(at(body.open))", ["verdict": verdict(file.guardPlacement(of: member))])
                }
            }
        case .nestedType:
            fields["kind"] = "nestedType"
            fields["name"] = name
        case .other:
            fields["kind"] = "other"
        }
        facts.add("member \(at(member.start))", fields)
    }

    private func verdict(_ placement: GuardPlacement) -> String {
        switch placement {
        case .first: return "first"
        case .firstWithReturn(let before): return "return-before " + before.map(at).joined(separator: " ")
        case .refused: return "refuse"
        }
    }
}

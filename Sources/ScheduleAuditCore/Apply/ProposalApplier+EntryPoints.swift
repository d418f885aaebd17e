import Foundation

extension ProposalApplier {
    /// Removes the guard of an entry point at its recorded site: the line when the guard is all of it,
    /// else the `assertIsolated(); ` put first on the brace's line. A site that holds no such guard is
    /// said, not edited.
    func removeGuard(of point: Proposal.Use, in name: String, edits: inout [ApplyPlan.LineEdit]) -> [ApplyPlan.Diagnostic] {
        let what = "\(name)'s '\(point.member)' is an entry point: its guard runs on \(point.context.description), outside the owner, and its body hops onto the owner"
        guard let site = point.site, case .found(let path) = tree.resolve(site.file, path: site.path),
            let lines = lines(of: path), site.line >= 1, site.line <= lines.count
        else {
            return [ApplyPlan.Diagnostic(path: point.site?.file ?? "<unknown>", line: point.site?.line ?? 1, column: 1, severity: .warning,
                                         message: "\(what); its guard's line cannot be found: remove it by hand")]
        }
        let text = lines[site.line - 1]
        let trimmed = text.drop(while: \.isWhitespace)
        let new: String
        if trimmed == AdoptionPlan.guardStatement || trimmed == AdoptionPlan.guardStatement + ";" {
            new = EditedSource.removedLine
        } else if let range = text.range(of: AdoptionPlan.guardStatement + "; ") {
            new = text.replacingCharacters(in: range, with: "")
        } else {
            return [ApplyPlan.Diagnostic(path: path, line: site.line, column: 1, severity: .warning,
                                         message: "\(what); this line is not its '\(AdoptionPlan.guardStatement)' alone: remove the guard by hand")]
        }
        let column = text.utf8.count - trimmed.utf8.count + 1
        if !edits.contains(where: { $0.path == path && $0.line == site.line }) {
            edits.append(.init(path: path, line: site.line, old: text, new: new))
        }
        return [ApplyPlan.Diagnostic(path: path, line: site.line, column: column, severity: .note,
                                     message: "\(what): fix-it: remove '\(AdoptionPlan.guardStatement)'")]
    }
}

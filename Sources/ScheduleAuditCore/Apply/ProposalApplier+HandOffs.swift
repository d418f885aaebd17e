import Foundation

extension ProposalApplier {
    /// The `handOff(to:)` of a move no `handOff(to:)` made, inserted as its own statement right after
    /// the statement where every instance was last used before it (the proposal's `letGo`), with that
    /// line's indentation: `article.handOff(to: storageQueue)`. Where the scan cannot place it (see
    /// ``SourceFile/handOffPlacement(line:typeName:function:)``), a warning names the line and why, and
    /// nothing is edited for it.
    func insertHandOff(
        _ handOff: Proposal.HandOff, of entry: Proposal.Entry, transferable: Bool, edits: inout [ApplyPlan.LineEdit]
    ) -> [ApplyPlan.Diagnostic] {
        let name = "'\(entry.qualifiedName)'"
        guard !Proposer.transferMembers.contains(handOff.member), let letGo = handOff.letGo else {
            // Moves of a run that recorded no `letGo` keep the note at the first use alone, as before.
            guard let unplaced = handOff.unplaced, !unplaced.hasPrefix(Proposer.unrecordedLetGo) else { return [] }
            return [site(handOff.site, .note, "the handOff(to:) of \(name) cannot be placed: \(unplaced)")]
        }
        let move = "every instance of \(name) leaves \(handOff.from.description) for \(handOff.to.description) after this line"
        guard let target = ownerExpression(handOff.to).spelling else {
            let reason = ownerExpression(handOff.to).reason ?? "no variable names it"
            return [site(letGo, .warning, "\(move), but the hand-off cannot be written: \(reason)")]
        }
        let call = "handOff(to: \(target))"
        guard transferable else {
            return [site(letGo, .note, "\(move); the record is not made transferable (above), so no '<object>.\(call)' is inserted")]
        }
        guard case .found(let path) = tree.resolve(letGo.file, path: letGo.path), let source = sources[path],
            letGo.line >= 1, letGo.line <= source.lines.count
        else {
            return [site(letGo, .warning, "\(move); its line cannot be found: write '<object>.\(call)' after it by hand")]
        }
        switch source.file.handOffPlacement(line: letGo.line - 1, typeName: entry.type, function: letGo.function) {
        case .refused(let reason):
            let text = source.lines[letGo.line - 1].trimmingCharacters(in: .whitespaces)
            return [Diagnostic(path: path, line: letGo.line, column: 1, severity: .warning,
                               message: "\(move), but the hand-off cannot be inserted after '\(text)': \(reason); write '<object>.\(call)' by hand, no edit")]
        case .after(let endLine, let receiver, let column, let typeNoted):
            let indentation = String(source.lines[letGo.line - 1].prefix { $0 == " " || $0 == "\t" })
            let statement = "\(receiver).\(call)"
            let at = { (message: String) in
                Diagnostic(path: path, line: letGo.line, column: column + 1, severity: .note, message: "\(move): \(message)")
            }
            if endLine + 1 < source.lines.count, source.lines[endLine + 1].drop(while: { $0 == " " || $0 == "\t" }) == statement {
                return [at("'\(statement)' follows already; no edit")]
            }
            if let index = edits.firstIndex(where: { $0.path == path && $0.line == endLine + 1 }) {
                guard edits[index].new != EditedSource.removedLine else {
                    return [at("its line is removed by another edit; write '\(statement)' by hand, no edit")]
                }
                edits[index].new += "\n" + indentation + statement
            } else {
                edits.append(.init(path: path, line: endLine + 1, old: source.lines[endLine], new: source.lines[endLine] + "\n" + indentation + statement))
            }
            return [at("fix-it: insert '\(statement)' after line \(endLine + 1) (\(typeNoted))")]
        }
    }
}

extension SourceFile {
    /// The lock members of the class whose body holds the 0-based `line` (the record's line), each as
    /// `'lock' (NSLock)`: stored properties whose type or initializer names a lock (``ClaimScan/namesLock(_:)``,
    /// dispatch queues left out: a queue owns, it does not lock). Empty when the class has none.
    func lockMembers(ofClassAt line: Int) -> [String] {
        let enclosing = typeDeclarations().filter {
            $0.kind == .class && tokens[$0.openBrace].line <= line && tokens[$0.closeBrace].line >= line
        }
        // The innermost: the last to open.
        guard let type = enclosing.max(by: { $0.openBrace < $1.openBrace }) else { return [] }
        return members(open: type.openBrace, close: type.closeBrace).compactMap { member in
            guard member.kind == .variable || member.kind == .constant, member.computedAccessors == nil, !member.isTypeMember,
                let name = member.nameToken, name + 1 < member.end
            else { return nil }
            let lock = tokens[(name + 1)..<member.end].first {
                $0.kind == .identifier && ClaimScan.namesLock($0.text) && $0.text != "DispatchQueue"
            }
            return lock.map { "'\(tokens[name].text)' (\($0.text))" }
        }
    }
}

// Spellings kept for source compatibility, each with its replacement (the CHANGELOG's "API changes").

extension ConfinedObject {
    /// Reports a violation naming `member` when called outside the object's owner — debug tier; the
    /// spelling from before the unlabeled argument of the check verbs became a message.
    ///
    /// - Parameters:
    ///   - member: The method, as `#function` spells it; used for reports and options.
    ///   - file: The guard's location.
    ///   - line: The guard's location.
    @available(*, deprecated, renamed: "assertIsolated(function:file:line:)", message: "the unlabeled argument is a message now")
    @inlinable
    public func assertIsolated(_ member: StaticString, file: StaticString = #fileID, line: UInt = #line) {
        #if SCHEDULABLE_CHECKS
        confinement._checkMethod(self, member, file, line, tier: .assert)
        #endif
    }

    /// Reports a violation naming `member` and stops the process when called outside the object's
    /// owner; the spelling from before the unlabeled argument of the check verbs became a message.
    ///
    /// - Parameters:
    ///   - member: The method, as `#function` spells it; used for reports and options.
    ///   - file: The guard's location.
    ///   - line: The guard's location.
    @available(*, deprecated, renamed: "preconditionIsolated(function:file:line:)", message: "the unlabeled argument is a message now")
    @inlinable
    public func preconditionIsolated(_ member: StaticString, file: StaticString = #fileID, line: UInt = #line) {
        confinement._checkMethod(self, member, file, line, tier: .precondition)
    }
}

extension Confinement {
    /// Transfers the object to `newOwner`, as ``ConfinedObject/handOff(to:file:line:)-(SerialScheduler,_,_)`` does,
    /// except that a report names the record's bind site instead of the object.
    ///
    /// - Parameters:
    ///   - newOwner: The scheduler that owns the object from now on.
    ///   - file: The new bind site.
    ///   - line: The new bind site.
    @available(*, deprecated, message: "call handOff(to:) on the object (ConfinedObject), whose report names it")
    @inlinable  // the caller calls the record itself: no struct-to-class hop in between
    public func handOff(to newOwner: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        _record.handOff(to: newOwner.executionContext, object: nil, file: file, line: line)
    }

    /// Returns the object to the detached state, as ``ConfinedObject/detach(file:line:)`` does, except
    /// that a report names the record's bind site instead of the object.
    ///
    /// - Parameters:
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    @available(*, deprecated, message: "call detach() on the object (ConfinedObject), whose report names it")
    @inlinable  // the caller calls the record itself: no struct-to-class hop in between
    public func detach(file: StaticString = #fileID, line: UInt = #line) {
        _record.detach(object: nil, file: file, line: line)
    }
}

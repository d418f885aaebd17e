import CSchedulableContext

/// The fast path of a record's checks: one relaxed atomic load of the owner's id, then the one compare
/// (``_CurrentToken/isCurrent(_:)``). Everything else runs only when they differ.
extension ConfinementRecord {
    /// Whether the thread's token equals the settled owner's id: the whole fast path.
    ///
    /// Never a false "yes": while the binding is unsettled ``_fastOwnerID`` holds a sentinel that no
    /// token equals. A "no" means "ask the slow path", not "violation".
    @usableFromInline
    @_transparent  // inlined even at -Onone, where checks run by default
    var _passesFastPath: Bool {
        #if DEBUG
        // The same load and compare, inlined even at -Onone (`always_inline`), where the Swift spelling
        // would be two C calls, a stdlib call for the word's address and a retain and release of `self`
        // passed as `AnyObject` on every check (the debug rows of Thresholds/instructions.tsv hold it).
        csched_record_passes_fast_path(Unmanaged.passUnretained(self).toOpaque())
        #else
        _CurrentToken.isCurrent(AtomicWord.loadRelaxed(firstIn: self))
        #endif
    }

    /// Checks a box's accessor (`value`, `object`) at the always-on tier: the fast path inline, the rest
    /// out of line. Accessors get no call site from Swift, so the report names none.
    ///
    /// - Parameter member: The accessor's name.
    @usableFromInline
    @_transparent  // inlined even at -Onone, where checks run by default
    func _checkAccessor(_ member: StaticString) {
        if _slowPath(!_passesFastPath) {
            _accessorCheckFailedFastPath(member)
        }
    }

    /// Checks a method guard (or a box's method): the fast path inline, the rest out of line.
    ///
    /// - Parameters:
    ///   - object: The protected object, when there is one (reports, the deinit exemption).
    ///   - member: The member, as `#function` spells it.
    ///   - file: The guard's location.
    ///   - line: The guard's location.
    ///   - tier: Which check tier.
    @usableFromInline
    @_transparent  // inlined even at -Onone, where checks run by default
    func _checkMethod(
        _ object: AnyObject?, _ member: StaticString, _ file: StaticString, _ line: UInt, tier: ConfinementViolation.Tier
    ) {
        if _slowPath(!_passesFastPath) {
            _methodCheckFailedFastPath(
                object: object, member: member, callSite: PackedCodeLocation(file: file, line: line), tier: tier
            )
        }
    }
}

// The checks, forwarded to the record: the fast path stays the one relaxed load of the record's first
// word and the one compare, through the struct's one reference (Benchmarks/scripts/check-instructions.sh).
extension Confinement {
    /// Whether the thread's token equals the settled owner's id: the whole fast path (see
    /// ``ConfinementRecord/_passesFastPath``).
    @usableFromInline
    @_transparent  // inlined even at -Onone, where checks run by default
    var _passesFastPath: Bool {
        // The load itself, not the record's `_passesFastPath`: at -Onone a method called on the
        // projected field copied (retained and released) the record on every access.
        _CurrentToken.isCurrent(AtomicWord.loadRelaxed(firstIn: _record))
    }

    /// Checks a box's accessor at the always-on tier (see ``ConfinementRecord/_checkAccessor(_:)``).
    @usableFromInline
    @_transparent  // inlined even at -Onone, where checks run by default
    func _checkAccessor(_ member: StaticString) { _record._checkAccessor(member) }

    /// Checks a method guard (see ``ConfinementRecord/_checkMethod(_:_:_:_:tier:)``).
    @usableFromInline
    @_transparent  // inlined even at -Onone, where checks run by default
    func _checkMethod(
        _ object: AnyObject?, _ member: StaticString, _ file: StaticString, _ line: UInt, tier: ConfinementViolation.Tier
    ) {
        _record._checkMethod(object, member, file, line, tier: tier)
    }

    /// The slow path of every check (see ``ConfinementRecord/_checkFailedFastPath(object:member:tier:typeName:)``).
    @usableFromInline
    @_transparent  // inlined even at -Onone: a forwarder only
    func _checkFailedFastPath(
        object: AnyObject?, member: ConfinedMemberReference, tier: ConfinementViolation.Tier, typeName: String? = nil
    ) {
        // Unretained: the caller's object (or box) keeps this confinement, and so its record, alive for
        // the call. Called on the projected field, `-O` may retain and release the record around every
        // legitimate slow path, which it does not for an unretained class reference.
        Unmanaged.passUnretained(_record)._withUnsafeGuaranteedRef {
            $0._checkFailedFastPath(object: object, member: member, tier: tier, typeName: typeName)
        }
    }

    /// The slow path of a box's accessor (see ``ConfinementRecord/_accessorCheckFailedFastPath(_:typeName:)``).
    @usableFromInline
    @_transparent  // inlined even at -Onone: a forwarder only
    func _accessorCheckFailedFastPath(_ member: StaticString, typeName: String? = nil) {
        // Unretained, as in `_checkFailedFastPath`.
        Unmanaged.passUnretained(_record)._withUnsafeGuaranteedRef {
            $0._accessorCheckFailedFastPath(member, typeName: typeName)
        }
    }

    /// Binds a sent object for good (see ``ConfinementRecord/bindSentObject(to:at:)``).
    package func bindSentObject(to scheduler: some SerialScheduler, at site: PackedCodeLocation) {
        _record.bindSentObject(to: scheduler, at: site)
    }

    /// The options, if the record has any besides the default.
    package var options: ErasedConfinementOptions? { _record.options }

    /// The handler that was in scope when the object was created.
    package var capturedHandler: (any ConfinementViolationHandler)? { _record.capturedHandler }

    /// The record object, for measuring what a confinement costs (Benchmarks: heap bytes per object).
    @_spi(Benchmarks)
    public var _recordObject: AnyObject { _record }
}

/// The part of a record only some objects need: options other than the default, and the handler of
/// the test that created the object. Allocated only then, so a default record is one allocation.
final class ConfinementExtras: @unchecked Sendable {
    // @unchecked: `resolvedProperties` is written once, under the owning record's stripe, before the
    // record's state word settles (a releasing store); lock-free readers read it only after an
    // acquiring load of a settled word. `lastObservedUse` is read and written under the stripe only.
    // Everything else is immutable.
    let options: ErasedConfinementOptions
    let capturedHandler: (any ConfinementViolationHandler)?
    /// Which wrappers the options' property entries reach; `nil` until probed.
    var resolvedProperties: ErasedConfinementOptions.ResolvedProperties?
    /// Whether property entries have to be matched to wrappers at all: only where wrappers check.
    let needsResolution: Bool
    /// Where ``Confinement/observed(file:line:)`` created the record; `nil` for a record that reports.
    let observedAt: CodeLocation?
    /// An observed record's most recent use (the verdict's rule 5), where its context lets go before a
    /// step to another one.
    var lastObservedUse: Observation.Use?

    /// Extras for a record, or `nil` when it needs none (default options, no test handler, not observed).
    convenience init?(
        options: ErasedConfinementOptions?, handler: (any ConfinementViolationHandler)?, observedAt: CodeLocation?
    ) {
        if options?.isDefault ?? true, handler == nil, observedAt == nil { return nil }
        self.init(options: options ?? ErasedConfinementOptions(), capturedHandler: handler, observedAt: observedAt)
    }

    private init(
        options: ErasedConfinementOptions, capturedHandler: (any ConfinementViolationHandler)?, observedAt: CodeLocation?
    ) {
        self.options = options
        self.capturedHandler = capturedHandler
        self.observedAt = observedAt
        self.needsResolution = options.hasPropertyEntries && ConfinementSystem.debugChecksCompiledIn
        self.resolvedProperties = needsResolution ? nil : ErasedConfinementOptions.ResolvedProperties()
    }
}

/// A value of any type confined to a scheduler, reached only through that scheduler — the aggregate
/// form of the SchedulableObject pattern, for types that cannot adopt ``ConfinedObject``
/// (a class from another module, a struct).
///
/// ```swift
/// let printer = SchedulableObject(Printer(), on: business)
/// printer.schedule { printer in printer.print("hello") }      // from anywhere
/// let pages = await printer.run { printer in printer.pageCount }
/// business.schedule { printer.object.print("direct") }         // on the owner: direct access
/// ```
///
/// The wrapper is `Sendable` whatever the wrapped type is: it may travel anywhere, but the wrapped
/// value is only handed to work that runs on the scheduler, and ``object`` checks at the always-on
/// (precondition) tier — an access from elsewhere is reported and stops the process before it happens.
public final class SchedulableObject<Object> {
    /// The scheduler the wrapped value belongs to.
    public let scheduler: any SerialScheduler

    private let protection: Confinement
    private var storage: Object

    /// Wraps `object` for `scheduler`.
    ///
    /// The value is *sent* into the wrapper (the caller keeps no access), so creating it on another thread is
    /// safe.
    ///
    /// - Parameters:
    ///   - object: The value to confine.
    ///   - scheduler: The scheduler it belongs to.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public init(_ object: sending Object, on scheduler: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        self.scheduler = scheduler
        // No construction window: the wrapper is an always-on tier, only the owner may ever pass.
        self.protection = Confinement(
            owner: scheduler.executionContext, options: ErasedConfinementOptions(),
            boundAt: CodeLocation(file: file, line: line), allowsConstructionWindow: false, scheduler: scheduler
        )
        self.storage = object
    }

    /// Wraps `object`, which already lives on `scheduler`, for objects that are part of a graph on the
    /// scheduler (a printer that shares its options provider with another wrapper) and so cannot be *sent*
    /// into the wrapper on their own.
    ///
    /// Call it on `scheduler`: that is checked, always.
    ///
    /// ```swift
    /// let (options, printer) = business.sync {
    ///     let options = PrintOptionsProvider()
    ///     return (SchedulableObject(options, onCurrent: business),
    ///             SchedulableObject(Printer(options), onCurrent: business))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - object: The value to confine; every other reference to it must also be used only on
    ///     `scheduler`, which holds when the graph is built there and reached through wrappers.
    ///   - scheduler: The scheduler it belongs to; the calling code must run on it.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public init(_ object: Object, onCurrent scheduler: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        self.scheduler = scheduler
        self.protection = Confinement(
            owner: scheduler.executionContext, options: ErasedConfinementOptions(),
            boundAt: CodeLocation(file: file, line: line), allowsConstructionWindow: false, scheduler: scheduler
        )
        self.storage = object
        // Like NIOLoopBound's non-sending initializer: the value may keep other references only
        // because they are all on the scheduler, so the wrapper must be made there.
        check("init(_:onCurrent:)", file, line)
    }

    /// The wrapped value, for code that already runs on ``scheduler`` (the pattern's first rule: same
    /// scheduler, direct call).
    ///
    /// Every get, set and in-place mutation is checked once, always.
    public var object: Object {
        get {
            check("object", #fileID, #line)
            return storage
        }
        set {
            check("object", #fileID, #line)
            storage = newValue
        }
        _modify {
            check("object", #fileID, #line)
            yield &storage
        }
    }

    /// Runs `work` with the value on ``scheduler``, later.
    ///
    /// A scheduler that rejects the work (shut down) reports it as ``ConfinementViolation/Kind/rejectedWork``.
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - work: The work, given the value in place.
    public func schedule(
        file: StaticString = #fileID, line: UInt = #line, _ work: @escaping @Sendable (inout Object) -> Void
    ) {
        scheduler.schedule({ work(&self.storage) }, file: file, line: line)
    }

    /// Runs `work` with the value now when the calling code runs on ``scheduler``, otherwise schedules
    /// it (see ``schedule(file:line:_:)``).
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - work: The work, given the value in place.
    public func perform(
        file: StaticString = #fileID, line: UInt = #line, _ work: @escaping @Sendable (inout Object) -> Void
    ) {
        scheduler.performInlineOrSchedule(file: file, line: line) { work(&self.storage) }
    }

    /// Runs `body` with the value on ``scheduler`` and returns its result: inline when the calling code
    /// already runs there, otherwise after a hop.
    ///
    /// The work runs even if the calling task is cancelled meanwhile.
    ///
    /// - Parameters:
    ///   - file: The call site, for a rejection report.
    ///   - line: The call site, for a rejection report.
    ///   - body: The work, given the value in place.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func run<T: Sendable, E: Error>(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @Sendable (inout Object) throws(E) -> T
    ) async throws(E) -> T {
        try await scheduler.runInlineOrHop(file: file, line: line) { () throws(E) -> T in try body(&self.storage) }
    }

    private func check(_ member: StaticString, _ file: StaticString, _ line: UInt) {
        protection._checkMethod(nil, member, file, line, tier: .precondition)
    }
}

// `storage` is only touched by work that runs on `scheduler` (the scheduling members submit it there,
// or run it inline after `isIsolated` said yes) and by `object`, whose failed check stops the process
// before the access. So the wrapper can cross threads whatever `Object` is — the NIOLoopBound argument.
extension SchedulableObject: @unchecked Sendable {}

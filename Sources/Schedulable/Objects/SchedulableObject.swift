/// A value of any type confined to a scheduler, reached only through that scheduler — the aggregate
/// form of the SchedulableObject pattern, for types that cannot adopt ``ConfinedObject``
/// (a class from another module, a struct).
///
/// It is how a non-`Sendable` object crosses threads in Swift 6 without an unchecked claim: the
/// wrapper is `Sendable`, and every way to reach the object through it is checked in every build.
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

    /// The owner and bind site: the wrapper's own checks, which need no record of their own.
    private let owner: FixedOwner
    /// The handler in scope where the wrapper was made (a test's), boxed so that it costs one word.
    private let handlerBox: HandlerBox?
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
    public convenience init(
        _ object: sending Object, on scheduler: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line
    ) {
        // No construction window: the wrapper is an always-on tier, only the owner may ever pass.
        self.init(storage: object, scheduler: scheduler, boundAt: PackedCodeLocation(file: file, line: line))
    }

    /// Wraps `object` for the main thread: the short form of
    /// `SchedulableObject(object, on: MainThreadScheduler.shared)`, as POSSchedulableObject's plain
    /// `init` scheduled its object on the main thread.
    ///
    /// ```swift
    /// let session = SchedulableObject(SessionModel())          // owned by the main thread
    /// session.schedule { $0.refresh() }                       // from anywhere: runs on main
    /// ```
    ///
    /// - Parameters:
    ///   - object: The value to confine.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public convenience init(_ object: sending Object, file: StaticString = #fileID, line: UInt = #line) {
        self.init(object, on: MainThreadScheduler.shared, file: file, line: line)
    }

    private init(storage: Object, scheduler: any SerialScheduler, boundAt: PackedCodeLocation) {
        self.scheduler = scheduler
        self.owner = FixedOwner(scheduler.executionContext, boundAt: boundAt)
        self.handlerBox = ConfinementSystem.scopedHandlerIfAny.map(HandlerBox.init)
        self.storage = storage
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
    public convenience init(
        _ object: Object, onCurrent scheduler: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(storage: object, scheduler: scheduler, boundAt: PackedCodeLocation(file: file, line: line))
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
            checkObjectAccess()
            return storage
        }
        set {
            checkObjectAccess()
            storage = newValue
        }
        _modify {
            checkObjectAccess()
            yield &storage
        }
    }

    /// Whether the calling code runs on ``scheduler``, so ``object`` may be used here. Never a false
    /// "yes"; reports nothing.
    public var isIsolated: Bool { owner.isIsolated }

    /// Reports a violation when called outside ``scheduler`` — debug tier: compiled out of release
    /// builds unless the `ReleaseChecks` trait is on.
    ///
    /// - Parameters:
    ///   - message: Added to the report's detail line; evaluated only for a report.
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    public func assertIsolated(
        _ message: @autoclosure () -> String = String(), file: StaticString = #fileID, line: UInt = #line
    ) {
        #if SCHEDULABLE_CHECKS
        checkVerb("assertIsolated()", file, line, tier: .assert, message: message)
        #endif
    }

    /// Reports a violation and stops the process when called outside ``scheduler`` — always on.
    ///
    /// - Parameters:
    ///   - message: Added to the report's detail line; evaluated only for a report.
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    public func preconditionIsolated(
        _ message: @autoclosure () -> String = String(), file: StaticString = #fileID, line: UInt = #line
    ) {
        checkVerb("preconditionIsolated()", file, line, tier: .precondition, message: message)
    }

    /// Runs `body` with the value in place after one always-on check that the calling code runs on
    /// ``scheduler`` — the escape hatch `MainActor.assumeIsolated` is for actors.
    ///
    /// - Parameters:
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    ///   - body: Reads or mutates the value.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func assumeIsolated<T, E: Error>(
        file: StaticString = #fileID, line: UInt = #line, _ body: (inout Object) throws(E) -> T
    ) throws(E) -> T {
        check("assumeIsolated(_:)", file, line)
        return try body(&storage)
    }

    /// The handler the wrapped value's record captured (futures report there).
    var capturedHandler: (any ConfinementViolationHandler)? { handlerBox?.handler }

    /// Runs `body` with the storage in place, unchecked: only for work that runs on ``scheduler``.
    func withStorage<T, E: Error>(_ body: (inout Object) throws(E) -> T) throws(E) -> T {
        try body(&storage)
    }

    /// The check of ``object``: Swift gives an accessor no call site, so the report names the wrapper's
    /// type instead.
    private func checkObjectAccess() {
        if _slowPath(!owner._passesFastPath) {
            owner.checkFailedFastPath(
                member: .accessor("object"), tier: .precondition, wrapper: "SchedulableObject", argument: Object.self,
                handler: capturedHandler
            )
        }
    }

    func check(_ member: StaticString, _ file: StaticString, _ line: UInt, tier: ConfinementViolation.Tier = .precondition) {
        if _slowPath(!owner._passesFastPath) {
            owner.checkFailedFastPath(
                member: .method(member, callSite: PackedCodeLocation(file: file, line: line)), tier: tier,
                wrapper: "SchedulableObject", argument: Object.self, handler: capturedHandler
            )
        }
    }

    /// The check of a check verb, with its caller's message (evaluated only for a report).
    private func checkVerb(
        _ member: StaticString, _ file: StaticString, _ line: UInt, tier: ConfinementViolation.Tier,
        message: () -> String
    ) {
        if _slowPath(!owner._passesFastPath) {
            owner._verbCheckFailedFastPath(
                member: .method(member, callSite: PackedCodeLocation(file: file, line: line)), tier: tier,
                wrapper: "SchedulableObject", argument: Object.self, handler: capturedHandler, message: message
            )
        }
    }
}

extension SchedulableObject where Object: ConfinedObject {
    /// Wraps a confined object for `scheduler`, binding the object's own record there: the object's
    /// guards and the wrapper's always-on checks then answer to one owner.
    ///
    /// The object is *sent* into the wrapper, so nothing else can reach it any more: its construction is
    /// over (the thread that built it passes no check from now on) and it is bound to `scheduler`,
    /// wherever it was bound before.
    ///
    /// ```swift
    /// let queue = SchedulableObject(UploadQueue(), on: uploads)
    /// queue.schedule { $0.enqueue(["beach.jpg"]) }          // hop to the owner, from anywhere
    /// ```
    ///
    /// - Parameters:
    ///   - object: The confined object.
    ///   - scheduler: The scheduler it belongs to from now on.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public convenience init(
        _ object: sending Object, on scheduler: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line
    ) {
        let boundAt = PackedCodeLocation(file: file, line: line)
        object.confinement.bindSentObject(to: scheduler, at: boundAt)
        self.init(storage: object, scheduler: scheduler, boundAt: boundAt)
    }

    /// Wraps a confined object for the main thread, binding the object's own record there: the short
    /// form of `SchedulableObject(object, on: MainThreadScheduler.shared)`.
    ///
    /// - Parameters:
    ///   - object: The confined object.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public convenience init(_ object: sending Object, file: StaticString = #fileID, line: UInt = #line) {
        self.init(object, on: MainThreadScheduler.shared, file: file, line: line)
    }
}

// `storage` is only touched by work that runs on `scheduler` (the scheduling members submit it there,
// or run it inline after `isIsolated` said yes) and by `object`, whose failed check stops the process
// before the access. So the wrapper can cross threads whatever `Object` is — the NIOLoopBound argument.
extension SchedulableObject: @unchecked Sendable {}

/// A handler kept in one word (an existential takes five).
private final class HandlerBox: Sendable {
    let handler: any ConfinementViolationHandler

    init(_ handler: any ConfinementViolationHandler) {
        self.handler = handler
    }
}

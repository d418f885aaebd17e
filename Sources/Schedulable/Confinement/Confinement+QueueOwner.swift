import Dispatch

/// A serial `DispatchQueue` as an object's owner, named directly: the owner existing code already has.
///
/// ```swift
/// let storageQueue = DispatchQueue(label: "com.app.storage")
///
/// final class Storage: ConfinedObject {
///     let confinement = Confinement(owner: storageQueue)
///     @Confined var rows: [String] = []
/// }
/// ```
///
/// The queue is as exact an owner as a ``SerialQueueScheduler``: a use passes in the queue's work (raw
/// `queue.async`, a raw `queue.sync {}` from any thread, work on a queue that targets it) and in the
/// work of a caller blocked in `sync` on it, and is reported anywhere else. One queue is one owner,
/// however many objects name it and whether or not a ``SerialQueueScheduler`` wraps it too (its
/// identity is kept as the queue's queue-specific value, so the queue keeps it, and a record never
/// keeps the queue alive).
///
/// The queue must be serial. The main queue, the global queues and — where libdispatch's queue state
/// can be read (Linux) — any queue made with `attributes: .concurrent` are refused: the process stops at
/// the initializer with the reason and the call site, in every build. On Darwin a concurrent queue
/// cannot be told apart and is accepted; confinement then means nothing for it, so name only serial
/// queues. Where libdispatch's drain lock can be read (Linux) every answer is exact and nothing traps;
/// on Darwin a failing check that would trap anyway asks `dispatchPrecondition` first (the Threading
/// Model article, "What libdispatch knows").
///
/// What it costs: one record per object (a library scheduler's fixed-owner objects may share one in a
/// release build); raw work on the queue takes the checks' slow path (the queue-specific read), since
/// only the library's own work sets the thread's token.
extension Confinement {
    /// Binds the object to the serial queue `owner` for its whole life (a fixed owner).
    ///
    /// - Parameters:
    ///   - owner: A serial queue (not the main queue, not a global or concurrent one: those stop the
    ///     process here, see above).
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public init(owner: DispatchQueue, file: StaticString = #fileID, line: UInt = #line) {
        let context = ExecutionContext.owningOrStopping(owner, in: "Confinement(owner:)", file: file, line: line)
        self.init(_record: .fixed(owner: context, boundAt: PackedCodeLocation(file: file, line: line)))
    }

    /// Binds the object to the serial queue `owner` for its whole life, checking only the members
    /// `options` selects.
    ///
    /// - Parameters:
    ///   - owner: A serial queue (see `init(owner:file:line:)`).
    ///   - options: Which guarded members are checked.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public init<Object>(
        owner: DispatchQueue, options: ConfinementOptions<Object>, file: StaticString = #fileID, line: UInt = #line
    ) {
        let context = ExecutionContext.owningOrStopping(owner, in: "Confinement(owner:options:)", file: file, line: line)
        self.init(
            _record: ConfinementRecord.withOptions(
                owner: context, options: options.erased, boundAt: PackedCodeLocation(file: file, line: line),
                isFixed: true
            )
        )
    }

    /// Binds the object to the serial queue `owner` now, for an object that changes hands (see
    /// `transferable(owner:file:line:)`).
    ///
    /// - Parameters:
    ///   - owner: A serial queue, the object's first owner.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    /// - Returns: The confinement.
    public static func transferable(owner: DispatchQueue, file: StaticString = #fileID, line: UInt = #line) -> Confinement {
        let context = ExecutionContext.owningOrStopping(owner, in: "Confinement.transferable(owner:)", file: file, line: line)
        return Confinement(_record: .transferable(owner: context, boundAt: PackedCodeLocation(file: file, line: line)))
    }

    /// A transferable confinement bound to the serial queue `owner` that checks only the members
    /// `options` selects.
    ///
    /// - Parameters:
    ///   - owner: A serial queue, the object's first owner.
    ///   - options: Which guarded members are checked.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    /// - Returns: The confinement.
    public static func transferable<Object>(
        owner: DispatchQueue, options: ConfinementOptions<Object>, file: StaticString = #fileID, line: UInt = #line
    ) -> Confinement {
        let context = ExecutionContext.owningOrStopping(
            owner, in: "Confinement.transferable(owner:options:)", file: file, line: line
        )
        return Confinement(
            _record: ConfinementRecord.withOptions(
                owner: context, options: options.erased, boundAt: PackedCodeLocation(file: file, line: line),
                isFixed: false
            )
        )
    }
}

extension ConfinedObject {
    /// Hands the object to the serial queue `newOwner` (see `handOff(to:file:line:)`).
    ///
    /// - Parameters:
    ///   - newOwner: A serial queue (not the main, a global or a concurrent queue: those stop the process).
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    public func handOff(to newOwner: DispatchQueue, file: StaticString = #fileID, line: UInt = #line) {
        let context = ExecutionContext.owningOrStopping(newOwner, in: "handOff(to:)", file: file, line: line)
        confinement._record.handOff(to: context, object: self, file: file, line: line)
    }
}

extension SchedulerBound {
    /// Binds `value` to the serial queue `owner` (see `init(_:owner:file:line:)`).
    ///
    /// - Parameters:
    ///   - value: The value to protect.
    ///   - owner: A serial queue (not the main, a global or a concurrent queue: those stop the process).
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    public init(_ value: sending Value, owner: DispatchQueue, file: StaticString = #fileID, line: UInt = #line) {
        let context = ExecutionContext.owningOrStopping(owner, in: "SchedulerBound(_:owner:)", file: file, line: line)
        _owner = FixedOwner(context, boundAt: PackedCodeLocation(file: file, line: line))
        _value = value
    }
}

/// Receives every violation.
///
/// Install one process-wide with ``ConfinementSystem/bootstrap(_:file:line:)`` or for a scope with
/// ``withConfinementViolationHandler(_:operation:)``.
///
/// ## Implementation requirements
/// - `handle(_:)` may be called on any thread, concurrently.
/// - It must not block waiting for the scheduler the violation happened on.
/// - A violation raised while a handler runs on the same thread is not delivered again (it is printed
///   to standard error), so handlers may touch protected objects without recursing.
/// - For ``ConfinementViolation/Tier/precondition`` violations the process traps after `handle(_:)`
///   returns; the handler cannot prevent that.
/// - When the outcome is a trap anyway (the precondition tier, or the process-wide `.trap` handler)
///   and the owner is a queue, libdispatch is asked first whether this thread holds the queue: it can
///   see one nesting the library cannot. Its "no" is a trap, so the report is printed and the process
///   stops without calling `handle(_:)`.
public protocol ConfinementViolationHandler: Sendable {
    /// Handles one violation.
    ///
    /// - Parameter violation: What happened.
    func handle(_ violation: ConfinementViolation)
}

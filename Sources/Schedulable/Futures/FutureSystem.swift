/// The process-wide settings of futures: STMQ's `setDefaultEntanglementLevel:` and
/// `logWhenWaitingIsRequired:`.
///
/// Both are read on every use, so they can be changed from a debugger; the level applies to futures
/// made afterwards, the note switch to waits that begin afterwards.
public enum FutureSystem {
    private static let defaultLevel = LockedValue(EntanglementLevel.unlimited)
    private static let logsWaits = AtomicCell(1)

    /// The ``EntanglementLevel`` of new root futures — STMQ's `setDefaultEntanglementLevel:`. Default:
    /// ``EntanglementLevel/unlimited``.
    ///
    /// Changing it affects only futures made afterwards. `.limited(1)` keeps direct futures
    /// asynchronous and runs whatever is derived from them in the present; `.limited(0)` turns futures
    /// off: `future { }` runs its body to completion before it returns, and
    /// ``ScheduledFuture/present(file:line:)`` returns at once, so the program runs as plain synchronous
    /// calls (one flow of control, no interleaving) — handy to tell whether a bug comes from the order
    /// futures run in.
    ///
    /// Work in the present still runs *on the future's scheduler*, never on a thread where its object's
    /// checks would fail: directly when the calling code already runs there (or holds it), otherwise as
    /// a synchronous call onto it, exactly like ``ThreadScheduler/sync(file:line:function:_:)`` (a thread
    /// scheduler caller keeps its loop turning; any other caller blocks and lends its context). A
    /// future made from inside a future body then waits for it too, so code that only works when
    /// futures overlap (one future waiting for a later one on the same scheduler) shows up as a
    /// deadlock at level 0; that is the point of the level, not a mode to ship.
    public static var defaultEntanglementLevel: EntanglementLevel {
        get { defaultLevel.withLock { $0 } }
        set { defaultLevel.withLock { $0 = newValue } }
    }

    /// Whether ``ScheduledFuture/present(file:line:)`` sends a ``ConfinementViolation/Kind/waitingRequired`` note through
    /// the violation handlers when it has to wait for the work (default: `true`).
    ///
    /// The note carries the call site and the future's creation site; handlers never trap on notes (the trap
    /// handler prints them, the log handler logs each call site once with repeat counts, `.off` ignores
    /// them). Turn it off when waiting is expected.
    public static var logsWhenWaitingIsRequired: Bool {
        get { logsWaits.loadRelaxed() != 0 }
        set { logsWaits.storeRelaxed(newValue ? 1 : 0) }
    }
}

/// The process-wide switches of futures: STMQ's `futureIsNotSet` and `logWhenWaitingIsRequired:`.
///
/// Both are plain settable switches, read on every use, so they can be flipped from a debugger, but
/// they are meant to be set once, early (before the first future is made): flipping them while
/// futures are in flight gives a mix of both behaviours.
public enum FutureSystem {
    private static let inline = AtomicCell(0)
    private static let logsWaits = AtomicCell(1)

    /// A debugging aid: when `true`, futures stop being asynchronous.
    ///
    /// `future { }` runs its body to completion before it returns, and ``ScheduledFuture/present(file:line:)`` returns
    /// at once, so the program runs as plain synchronous calls (one flow of control, no interleaving) — handy
    /// to tell whether a bug comes from the order futures run in. Default: `false`.
    ///
    /// The body still runs *on the future's scheduler*, never on a thread where its object's checks
    /// would fail: directly when the calling code already runs there (or holds it), otherwise as a
    /// synchronous call onto it, exactly like ``ThreadScheduler/sync(file:line:_:)`` (a thread
    /// scheduler caller keeps its loop turning; any other caller blocks and lends its context). A
    /// future made from inside a future body then waits for it too, so code that only works when
    /// futures overlap (one future waiting for a later one on the same scheduler) shows up as a
    /// deadlock here; that is the point of the switch, not a mode to ship.
    ///
    /// Futures made before the switch is turned on keep their asynchronous behaviour.
    public static var runsFuturesInline: Bool {
        get { inline.loadRelaxed() != 0 }
        set { inline.storeRelaxed(newValue ? 1 : 0) }
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

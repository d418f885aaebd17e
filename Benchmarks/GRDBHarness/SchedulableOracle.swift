// Part of Schedulable's GRDB harness (Benchmarks/GRDBHarness in the Schedulable repository), copied into
// a scratch clone of GRDB by run.sh. Not part of GRDB, and never built by Schedulable's own package.
//
// A GRDB connection (SerializedDatabase, whose work runs on its own DispatchQueue) gets a Schedulable
// confinement owned by that queue. At every SchedulingWatchdog decision, GRDB decides as before; this
// oracle then asks Schedulable the same question with `assertIsolated()`, under a handler that only
// counts (installed once, never traps). Schedulable reports; it never changes what GRDB does.

import Dispatch
import Schedulable
#if canImport(Glibc)
import Glibc
#endif

/// A connection's confinement, as Schedulable sees it: owned by the connection's dispatch queue.
///
/// A separate object rather than the connection itself, so that decisions made while the connection is
/// being deinitialized (`SerializedDatabase.deinit` calls `reentrantSync`) are still asked: Schedulable
/// exempts accesses to an object from inside that object's own `deinit`.
final class SchedulableOracle: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement

    /// `nil` when Schedulable refuses the queue as an owner (counted; GRDB goes on unchanged).
    init?(queue: DispatchQueue) {
        SchedulableOracle.start()
        guard let scheduler = try? SerialQueueScheduler(wrapping: queue) else {
            Tally.shared.withLock { $0.refusedQueues += 1 }
            return nil
        }
        // The scheduler is not kept: the queue keeps its context (a queue-specific value) and the record
        // keeps the context, never the queue. Keeping it would close a cycle that frees nothing: queue ->
        // GRDB's watchdog -> Database -> oracle -> scheduler -> queue.
        confinement = Confinement(owner: scheduler)
        // No construction window: only the queue's work is the owner, as for GRDB's watchdog.
        confinement.endConstruction()
        Tally.shared.withLock { $0.connections += 1 }
    }

    /// Freed with its `Database`: the count shows the harness keeps no connection alive.
    deinit {
        Tally.shared.withLock { $0.freed += 1 }
    }

    /// One watchdog decision: `grdb` is GRDB's answer to "may this connection be used here?"; `site` is
    /// the GRDB function that asked (it names the report). Schedulable is asked with `isIsolated`
    /// (to count agreement) and `assertIsolated()` (a report when it says no).
    @inline(never)
    func record(_ grdb: Bool, site: StaticString, file: StaticString = #fileID, line: UInt = #line) {
        guard Self.asking else {
            Tally.shared.withLock { tally in
                tally.decisions += 1
                if !grdb { tally.grdbNo += 1 }
            }
            return
        }
        let schedulable = isIsolated
        Tally.shared.withLock { tally in
            tally.decisions += 1
            if !grdb { tally.grdbNo += 1 }
            if grdb && !schedulable { tally.grdbYesSchedulableNo += 1 }
            if !grdb && schedulable { tally.grdbNoSchedulableYes += 1 }
        }
        assertIsolated(site, file: file, line: line)
    }

    // MARK: - Process-wide state

    struct Tally {
        var connections = 0
        var freed = 0
        var refusedQueues = 0
        var decisions = 0
        var grdbNo = 0
        var grdbYesSchedulableNo = 0
        var grdbNoSchedulableYes = 0
        var reports = 0
        var firstReport: ConfinementViolation?

        static let shared = Mutex(Tally())
    }

    /// `SCHEDULABLE_ORACLE=off` (run.sh --control): decisions are counted, Schedulable is not asked.
    static let asking = getenv("SCHEDULABLE_ORACLE").map { String(cString: $0) } != "off"

    private static let started: Void = {
        // The recording handler: counts reports and keeps the first; never traps, never prints (a report's
        // symbolication is not needed to count it). Installed once, before the first decision.
        ConfinementSystem.bootstrap(CustomViolationHandler { violation in
            Tally.shared.withLock { tally in
                tally.reports += 1
                if tally.firstReport == nil { tally.firstReport = violation }
            }
        })
        atexit {
            let tally = SchedulableOracle.Tally.shared.withLock { $0 }
            var text = "schedulable-oracle: \(asking ? "asked" : "not asked (control)"), connections \(tally.connections) (freed \(tally.freed)), queues refused \(tally.refusedQueues), "
                + "decisions \(tally.decisions) (GRDB said no: \(tally.grdbNo)), reports \(tally.reports), "
                + "disagreements: GRDB yes/Schedulable no \(tally.grdbYesSchedulableNo), "
                + "GRDB no/Schedulable yes \(tally.grdbNoSchedulableYes)\n"
            if let first = tally.firstReport {
                text += "schedulable-oracle: first report: \(first.kind) \(first.qualifiedMember), "
                    + "expected \(first.expectedOwner), ran in \(first.actualContext)\n"
            }
            text.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
        }
    }()

    static func start() { _ = started }
}

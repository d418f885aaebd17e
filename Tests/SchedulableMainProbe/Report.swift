// The probe's "report" mode: a property of a queue-owned object read by top-level code on the main
// thread, with a handler that writes the report to standard error (ReportContentTests checks its text):
// once while the owner is idle, once while it runs work held busy by a semaphore (ViolationSidesTests).

import Dispatch
import Schedulable

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

final class Mailbox: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    @Confined var unread = 0

    init(owner: some SerialScheduler) {
        confinement = Confinement(owner: owner)
    }
}

private struct StandardErrorHandler: ConfinementViolationHandler {
    func handle(_ violation: ConfinementViolation) {
        let text = violation.description + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}

private let readLine = #line + 2
@inline(never) func readMailboxOnMainThread(_ mailbox: Mailbox) -> Int {
    mailbox.unread
}

/// Reads a queue-owned property on the main thread; the report goes to standard error, after the line of
/// the read.
func reportFromMainThread() {
    let line = "access line: \(readLine)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    let owner = SerialQueueScheduler(label: "probe.mail")
    let mailbox = withConfinementViolationHandler(StandardErrorHandler()) { Mailbox(owner: owner) }
    mailbox.confinement.endConstruction()
    _ = readMailboxOnMainThread(mailbox)
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let busyLine = #line + 1
    owner.schedule {
        started.signal()
        release.wait()
    }
    started.wait()
    let busy = "busy line: \(busyLine)\n"
    _ = busy.withCString { write(2, $0, strlen($0)) }
    _ = readMailboxOnMainThread(mailbox)
    release.signal()
    owner.sync {}
}

import CSchedulableContext
import Dispatch
import Foundation
@testable import Schedulable
import Testing

// Both sides of a wrong-context report (issue 38): what the owner was running, who the intruder is.
// Every scenario holds the owner (or the intruder) where it must be with semaphores, never a sleep, and
// the timing-sensitive ones run many times with the same answer.

private let thisFile = "SchedulableTests/ViolationSidesTests.swift"

/// Makes the bad access from `queue` and returns the one violation it recorded.
func sidesViolation(
    of inbox: Inbox, recorder: ViolationRecorder, from queue: DispatchQueue = DispatchQueue(label: "sides.intruder")
) throws -> ConfinementViolation {
    let before = recorder.count
    _ = queue.sync { BadAccess.readUnread(inbox) }
    #expect(recorder.count == before + 1)
    return try #require(recorder.violations.last)
}

/// An inbox owned by `owner` whose reports go to `recorder`.
func sidesInbox(ownedBy owner: some SerialScheduler, recorder: ViolationRecorder) -> Inbox {
    let inbox = withConfinementViolationHandler(recorder) { Inbox(owner: owner) }
    inbox.confinement.endConstruction()
    return inbox
}

/// Submits, through `submit`, a work item that holds the owner busy; makes the bad access while it
/// runs (the item has signalled that it started) and returns that access's violation, then lets it go.
func sidesViolationWhileBusy(
    of inbox: Inbox, recorder: ViolationRecorder, submit: (@escaping @Sendable () -> Void) -> Void
) throws -> ConfinementViolation {
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    submit {
        started.signal()
        release.wait()
    }
    started.wait()
    defer { release.signal() }
    return try sidesViolation(of: inbox, recorder: recorder)
}

func ownerLine(_ violation: ConfinementViolation) -> String? {
    violation.description.split(separator: "\n").map(String.init).first { $0.hasPrefix("  owner was:") }
}

func intruderLine(_ violation: ConfinementViolation) -> String? {
    violation.description.split(separator: "\n").map(String.init).first { $0.hasPrefix("  intruder:") }
}

@Suite("Both sides of a violation")
struct ViolationSidesTests {
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func anOwnerBusyWithScheduledWorkIsNamedByItsSchedulingSite() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "sides.busy.owner")
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        for _ in 0..<200 {
            let scheduledLine = #line + 1
            let report = try sidesViolationWhileBusy(of: inbox, recorder: recorder) { owner.schedule($0) }
            let activity = try #require(report.ownerActivity)
            #expect(activity.state == .running)
            #expect(activity.scheduledAt == CodeLocation(fileID: thisFile, line: scheduledLine))
            #expect(activity.function == "anOwnerBusyWithScheduledWorkIsNamedByItsSchedulingSite()")
            #expect(activity.runningForNanoseconds != nil)
            let line = try #require(ownerLine(report))
            let expected = "  owner was:       running work scheduled at \(thisFile):\(scheduledLine) in "
                + "anOwnerBusyWithScheduledWorkIsNamedByItsSchedulingSite(), started "
            #expect(line.hasPrefix(expected), "\(line)")
            #expect(line.hasSuffix(" before"), "\(line)")
        }
        owner.sync {}
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func howLongTheOwnersItemRanIsMeasured() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "sides.duration.owner")
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let clock = ContinuousClock()
        let before = clock.now
        owner.schedule {
            started.signal()
            release.wait()
        }
        started.wait()
        // A lower bound, not a race: the item began before it signalled, so it has run at least this long.
        Thread.sleep(forTimeInterval: 0.02)
        let report = try sidesViolation(of: inbox, recorder: recorder)
        let upperBound = before.duration(to: clock.now)
        release.signal()
        owner.sync {}
        let ran = try #require(report.ownerActivity?.runningForNanoseconds)
        #expect(ran >= 20_000_000, "\(ran) ns")
        #expect(Duration.nanoseconds(Int64(ran)) <= upperBound * 1.01, "\(ran) ns, at most \(upperBound)")
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aThreadSchedulerOwnerBusyWithAnEventIsNamedByItsSchedulingSite() throws {
        let recorder = ViolationRecorder()
        let owner = ThreadScheduler(label: "sides.busy.thread")
        defer { owner.shutdown() }
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        for _ in 0..<100 {
            let scheduledLine = #line + 1
            let report = try sidesViolationWhileBusy(of: inbox, recorder: recorder) { owner.perform($0) }
            let activity = try #require(report.ownerActivity)
            #expect(activity.state == .running)
            #expect(activity.scheduledAt == CodeLocation(fileID: thisFile, line: scheduledLine))
            #expect(activity.function == "aThreadSchedulerOwnerBusyWithAnEventIsNamedByItsSchedulingSite()")
        }
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func delayedWorkIsNamedByWhereItWasScheduled() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "sides.delayed.owner")
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        let scheduledLine = #line + 1
        let report = try sidesViolationWhileBusy(of: inbox, recorder: recorder) { owner.schedule(after: .milliseconds(1), $0) }
        let activity = try #require(report.ownerActivity)
        #expect(activity.state == .running)
        #expect(activity.scheduledAt == CodeLocation(fileID: thisFile, line: scheduledLine))
        #expect(activity.function == nil)
        owner.sync {}
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aFuturesWorkIsNamedByWhereTheFutureWasMade() throws {
        let recorder = ViolationRecorder()
        let owner = ThreadScheduler(label: "sides.future.owner")
        defer { owner.shutdown() }
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        for _ in 0..<50 {
            var made: ScheduledFuture<Int>?
            let madeLine = #line + 1
            let report = try sidesViolationWhileBusy(of: inbox, recorder: recorder) { hold in made = owner.future { hold(); return 1 } }
            let future = try #require(made)
            owner.sync {}   // the future's work has run: present() does not wait (no note)
            #expect(try future.present() == 1)
            let activity = try #require(report.ownerActivity)
            #expect(activity.state == .running)
            #expect(activity.scheduledAt == CodeLocation(fileID: thisFile, line: madeLine))
        }
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func anIdleOwnerIsIdle() throws {
        let recorder = ViolationRecorder()
        let queueOwner = SerialQueueScheduler(label: "sides.idle.queue")
        let threadOwner = ThreadScheduler(label: "sides.idle.thread")
        defer { threadOwner.shutdown() }
        for _ in 0..<100 {
            let onQueue = try sidesViolation(of: sidesInbox(ownedBy: queueOwner, recorder: recorder), recorder: recorder)
            // Idle is only said where the library can see the queue is not draining (its drain lock).
            let expected: ConfinementViolation.OwnerActivity.State =
                PlatformInternals.dispatchReaderConfirmed ? .idle : .notRunningLibraryWork
            #expect(onQueue.ownerActivity?.state == expected)
            let onThread = try sidesViolation(of: sidesInbox(ownedBy: threadOwner, recorder: recorder), recorder: recorder)
            #expect(onThread.ownerActivity?.state == .idle)
            #expect(ownerLine(onThread) == "  owner was:       idle")
        }
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func anOwnerInRawDispatchWorkIsNotGivenAScheduledSite() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "sides.raw.owner")
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        for _ in 0..<200 {
            let drainer = LockedValue<UInt64>(0)
            let report = try sidesViolationWhileBusy(of: inbox, recorder: recorder) { hold in
                owner.queue.async {
                    drainer.withLock { $0 = csched_os_thread_id() }
                    hold()
                }
            }
            let activity = try #require(report.ownerActivity)
            #expect(activity.scheduledAt == nil)
            if PlatformInternals.dispatchReaderConfirmed {
                #expect(activity.state == .runningOtherWork)
                #expect(activity.drainingThread == drainer.withLock { $0 })
                #expect(ownerLine(report)?.hasPrefix(
                    "  owner was:       running work not scheduled through this package (its queue was draining on thread "
                ) == true)
            } else {
                #expect(activity.state == .notRunningLibraryWork)
            }
        }
        owner.sync {}
    }

    /// A custom scheduler implements only the public `trySchedule(_:)`: its work runs without a site,
    /// even when it hands the work to a library scheduler — the site travels with the work, never on
    /// the side, so nothing reaches the library scheduler but the closure.
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aCustomSchedulersWorkRunsWithoutASite() throws {
        let recorder = ViolationRecorder()
        let inner = SerialQueueScheduler(label: "sides.custom.inner")
        let custom = ForwardingScheduler(inner)
        let inbox = sidesInbox(ownedBy: custom, recorder: recorder)
        for _ in 0..<200 {
            let report = try sidesViolationWhileBusy(of: inbox, recorder: recorder) { custom.schedule($0) }
            let activity = try #require(report.ownerActivity)
            #expect(activity.state == .running)
            #expect(activity.scheduledAt == nil && activity.function == nil)
            #expect(ownerLine(report)?.hasPrefix(
                "  owner was:       running work whose scheduling site it was not told"
            ) == true, "\(ownerLine(report) ?? "no owner line")")
        }
        inner.sync {}
    }
}

/// A custom scheduler that hands its work to a library one through the public requirement only.
private final class ForwardingScheduler: SerialScheduler {
    let inner: SerialQueueScheduler
    var label: String { inner.label }
    var executionContext: ExecutionContext { inner.executionContext }

    init(_ inner: SerialQueueScheduler) {
        self.inner = inner
    }

    func trySchedule(_ work: @escaping @Sendable () -> Void) throws(ScheduleRejection) {
        try inner.trySchedule(work)
    }
}

import Dispatch
@testable import Schedulable
import Testing

// Both sides of a violation, for work scheduled through a SchedulableObject: its schedule, perform and
// run hand the call site and the calling function to the work item, so "owner was" and "intruder" name
// them. Helpers in ViolationSidesTests.swift.

private let thisFile = "SchedulableTests/ViolationSidesObjectTests.swift"

/// A wrapped value for the scenarios: what it holds does not matter, only where its work runs.
private final class Tally {
    var count = 0
}

@Suite("Both sides of a violation: SchedulableObject's work")
struct ViolationSidesObjectTests {
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func anOwnerBusyWithAnObjectsScheduledWorkIsNamedByItsSchedulingSite() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "sides.object.schedule")
        let counter = SchedulableObject(Tally(), on: owner)
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        for _ in 0..<200 {
            let scheduledLine = #line + 1
            let report = try sidesViolationWhileBusy(of: inbox, recorder: recorder) { hold in counter.schedule { $0.count += 1; hold() } }
            let activity = try #require(report.ownerActivity)
            #expect(activity.state == .running)
            #expect(activity.scheduledAt == CodeLocation(fileID: thisFile, line: scheduledLine))
            #expect(activity.function == "anOwnerBusyWithAnObjectsScheduledWorkIsNamedByItsSchedulingSite()")
            #expect(ownerLine(report)?.hasPrefix(
                "  owner was:       running work scheduled at \(thisFile):\(scheduledLine) in "
                    + "anOwnerBusyWithAnObjectsScheduledWorkIsNamedByItsSchedulingSite(), started "
            ) == true, "\(ownerLine(report) ?? "no owner line")")
        }
        #expect(owner.sync { counter.object.count } == 200)
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func anOwnerBusyWithAnObjectsPerformedWorkIsNamedByItsSchedulingSite() throws {
        let recorder = ViolationRecorder()
        let owner = ThreadScheduler(label: "sides.object.perform")
        defer { owner.shutdown() }
        let counter = SchedulableObject(Tally(), on: owner)
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        for _ in 0..<100 {
            // Called off the owner, so perform schedules the work.
            let scheduledLine = #line + 1
            let report = try sidesViolationWhileBusy(of: inbox, recorder: recorder) { hold in counter.perform { _ in hold() } }
            let activity = try #require(report.ownerActivity)
            #expect(activity.state == .running)
            #expect(activity.scheduledAt == CodeLocation(fileID: thisFile, line: scheduledLine))
            #expect(activity.function == "anOwnerBusyWithAnObjectsPerformedWorkIsNamedByItsSchedulingSite()")
        }
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func anOwnerBusyWithAnObjectsRunIsNamedByItsCallSite() async throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "sides.object.run")
        let counter = SchedulableObject(Tally(), on: owner)
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        for _ in 0..<50 {
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let calledLine = #line + 1
            async let ran: Int = counter.run { counter in
                started.signal()
                release.wait()
                counter.count += 1
                return counter.count
            }
            // Waits on a queue, not on the test's task: the semaphore would block a pool thread otherwise.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    started.wait()
                    done.resume()
                }
            }
            let report = try sidesViolation(of: inbox, recorder: recorder)
            release.signal()
            _ = await ran
            let activity = try #require(report.ownerActivity)
            #expect(activity.state == .running)
            #expect(activity.scheduledAt == CodeLocation(fileID: thisFile, line: calledLine))
            #expect(activity.function == "anOwnerBusyWithAnObjectsRunIsNamedByItsCallSite()")
        }
        #expect(owner.sync { counter.object.count } == 50)
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func anIntruderInAnObjectsScheduledWorkIsNamedByItsSchedulingSite() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "sides.object.owner")
        let elsewhere = SerialQueueScheduler(label: "sides.object.intruder")
        let counter = SchedulableObject(Tally(), on: elsewhere)
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        let done = DispatchSemaphore(value: 0)
        let scheduledLine = #line + 1
        counter.schedule { _ in
            _ = BadAccess.readUnread(inbox)
            done.signal()
        }
        done.wait()
        let side = try #require(recorder.violations.last?.intruder)
        #expect(side.context == "queue \"sides.object.intruder\"")
        #expect(side.scheduledAt == CodeLocation(fileID: thisFile, line: scheduledLine))
        #expect(side.function == "anIntruderInAnObjectsScheduledWorkIsNamedByItsSchedulingSite()")
    }
}

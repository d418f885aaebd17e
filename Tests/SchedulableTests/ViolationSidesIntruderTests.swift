import CSchedulableContext
import Dispatch
import Foundation
@testable import Schedulable
import Testing

// Both sides of a wrong-context report, continued: the intruder's side, the main thread (through the
// probe program), and the JSON line. Helpers in ViolationSidesTests.swift.

private let thisFile = "SchedulableTests/ViolationSidesIntruderTests.swift"

@Suite("Both sides of a violation: the intruder")
struct ViolationSidesIntruderTests {
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func anIntruderInASchedulersWorkIsNamedByItsSchedulingSite() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "sides.intruder.owner")
        let intruder = SerialQueueScheduler(label: "sides.intruder.queue")
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        let done = DispatchSemaphore(value: 0)
        let scheduledLine = #line + 1
        intruder.schedule {
            _ = BadAccess.readUnread(inbox)
            done.signal()
        }
        done.wait()
        let report = try #require(recorder.violations.last)
        let side = try #require(report.intruder)
        #expect(side.context == "queue \"sides.intruder.queue\"")
        #expect(side.scheduledAt == CodeLocation(fileID: thisFile, line: scheduledLine))
        #expect(side.function == "anIntruderInASchedulersWorkIsNamedByItsSchedulingSite()")
        #expect(!side.inTask)
        #expect(side.thread != 0)
        #expect(intruderLine(report)?.hasPrefix(
            "  intruder:        work of queue \"sides.intruder.queue\" scheduled at \(thisFile):\(scheduledLine) in "
                + "anIntruderInASchedulersWorkIsNamedByItsSchedulingSite(), no task, on thread \(side.thread)"
        ) == true, "\(intruderLine(report) ?? "no intruder line")")
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func anIntruderInANamedTaskIsNamedByTheTask() async throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "sides.task.owner")
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        await Task(name: "Upload batch 3") { _ = BadAccess.readUnread(inbox) }.value
        await Task { _ = BadAccess.readUnread(inbox) }.value
        let reports = recorder.violations
        #expect(reports.count == 2)
        let named = try #require(reports.first?.intruder)
        #expect(named.inTask)
        #expect(named.context == nil)
        #if !canImport(Darwin)
        #expect(named.taskName == "Upload batch 3")
        #expect(intruderLine(reports[0])?.hasPrefix("  intruder:        task \"Upload batch 3\", on thread \(named.thread)") == true)
        #endif
        let unnamed = try #require(reports.last?.intruder)
        #expect(unnamed.inTask && unnamed.taskName == nil)
        #expect(intruderLine(reports[1])?.hasPrefix("  intruder:        a task without a name, on thread ") == true)
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func anIntruderOnAPoolThreadIsNamedByItsRootQueue() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "sides.pool.owner")
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = BadAccess.readUnread(inbox)
            done.signal()
        }
        done.wait()
        let side = try #require(recorder.violations.last?.intruder)
        #expect(side.context == nil && side.scheduledAt == nil && !side.inTask)
        #if !canImport(Darwin)
        if PlatformInternals.isRootQueueLabel("com.apple.root.default-qos") == true {
            #expect(side.qos == "default")
            #expect(side.threadName?.hasPrefix("com.apple.root.default-qos") == true, "\(side.threadName ?? "nil")")
        }
        #endif
    }

    /// Also with the work items' start stamps read from the clock instead of the CPU's counter (the
    /// kill switch; what a machine whose counter is not invariant, or not the kernel's clock, gets).
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn), arguments: [[], ["SCHEDULABLE_DISABLE_CPU_COUNTER=1"]])
    func anIntruderOnTheMainThreadAndAnOwnerIdleThenBusy(environment: [String]) throws {
        // The probe's top-level code runs on the main thread (Tests/SchedulableMainProbe/Report.swift).
        let outcome = try runMainProbe(["report"], environment: environment)
        #expect(outcome.exitStatus == 0)
        let lines = outcome.standardError.split(separator: "\n").map(String.init)
        let busyLine = try #require(lines.first { $0.hasPrefix("busy line: ") }.flatMap { Int($0.dropFirst(11)) })
        let owners = lines.filter { $0.hasPrefix("  owner was:") }
        let intruders = lines.filter { $0.hasPrefix("  intruder:") }
        try #require(owners.count == 2 && intruders.count == 2, "\(outcome.standardError)")
        let idle = PlatformInternals.dispatchReaderConfirmed
            ? "idle" : "running no work scheduled through this package (whether it ran other code cannot be read here)"
        #expect(owners[0] == "  owner was:       \(idle)")
        #expect(owners[1].hasPrefix(
            "  owner was:       running work scheduled at schedulable_main_probe/Report.swift:\(busyLine) in "
                + "reportFromMainThread(), started "
        ), "\(owners[1])")
        // The busy owner started its work moments ago: a figure in µs or ms, never seconds or a wrap.
        #expect(owners[1].hasSuffix(" µs before") || owners[1].hasSuffix(" ms before"), "\(owners[1])")
        for intruder in intruders {
            #expect(intruder.hasPrefix("  intruder:        no task, on thread "), "\(intruder)")
            #expect(!intruder.contains("work of"), "\(intruder)")
        }
    }

    /// The kill switch for the owner's side: no work item publishes itself, so a report says nothing of
    /// the owner rather than calling a busy owner idle; the intruder's side is unchanged.
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theOwnersSideSwitchedOffLeavesNoOwnerLine() throws {
        let outcome = try runMainProbe(["report"], environment: ["SCHEDULABLE_DISABLE_OWNER_SIDE=1"])
        #expect(outcome.exitStatus == 0)
        let lines = outcome.standardError.split(separator: "\n").map(String.init)
        let intruders = lines.filter { $0.hasPrefix("  intruder:") }
        #expect(intruders.count == 2, "\(outcome.standardError)")
        #expect(!lines.contains { $0.hasPrefix("  owner was:") }, "\(outcome.standardError)")
    }

    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func theJSONLineCarriesBothSides() throws {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "sides.json.owner")
        let inbox = sidesInbox(ownedBy: owner, recorder: recorder)
        let scheduledLine = #line + 1
        let report = try sidesViolationWhileBusy(of: inbox, recorder: recorder) { owner.schedule($0) }
        owner.sync {}
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(report.jsonLine().utf8)) as? [String: Any]
        )
        #expect(object["version"] as? Int == 4)
        let activity = try #require(object["ownerActivity"] as? [String: Any])
        #expect(activity["state"] as? String == "running")
        #expect(activity["function"] as? String == "theJSONLineCarriesBothSides()")
        let at = try #require(activity["scheduledAt"] as? [String: Any])
        #expect(at["fileID"] as? String == thisFile && at["line"] as? Int == scheduledLine)
        #expect((activity["runningForNanoseconds"] as? Int).map { $0 >= 0 } == true)
        let intruder = try #require(object["intruder"] as? [String: Any])
        // `DispatchQueue.sync` runs the block on the calling thread: inside the test's own task.
        #expect(intruder["inTask"] as? Bool == true)
        #expect(intruder["threadName"] as? String == "sides.intruder")
    }
}

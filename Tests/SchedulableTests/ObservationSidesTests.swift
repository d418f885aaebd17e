import Dispatch
import Foundation
import Testing

@testable import Schedulable

// The observation file's steps say what the new user was running (issue 38's intruder side, the
// cheap part): the library work item's scheduling site and function (`work`) and the task's name
// (`taskName`). Each test observes a type of its own: the store is the process's.

private final class ObservedSides<Tag>: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()
    func touch() { preconditionIsolated() }
}

private final class DeclaredSides: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    init(owner: some SerialScheduler) { confinement = Confinement(owner: owner) }
    func touch() { assertIsolated() }
}

private enum InWork {}
private enum InTask {}
private enum HandedOff {}
private enum RawQueue {}

private let thisFile = "SchedulableTests/ObservationSidesTests.swift"

/// The steps of the first kept instance of `name` in the observation file, in order.
private func steps(of name: String) throws -> [[String: Any]] {
    let file = try #require(
        try JSONSerialization.jsonObject(with: Data(ConfinementObservations.json.utf8)) as? [String: Any]
    )
    let types = try #require(file["types"] as? [[String: Any]])
    let type = try #require(types.first { $0["type"] as? String == name })
    let instances = try #require(type["instanceSteps"] as? [[String: Any]])
    return try #require(instances.first?["steps"] as? [[String: Any]])
}

private func stepWork(_ step: [String: Any]) -> (line: Int?, file: String?, function: String?)? {
    guard let work = step["work"] as? [String: Any] else { return nil }
    let at = work["scheduledAt"] as? [String: Any]
    return (at?["line"] as? Int, at?["fileID"] as? String, work["function"] as? String)
}

@Suite("Observation: what the new user was running")
struct ObservationSidesTests {
    let first = SerialQueueScheduler(label: "observe-sides.first")
    let second = SerialQueueScheduler(label: "observe-sides.second")

    init() {
        ConfinementObservations.writesFileAtExit = false
    }

    /// `Task.name` is read where the runtime has it: Linux, and the 26 releases of Apple's OSes.
    static var taskNamesAreRead: Bool {
        #if canImport(Darwin)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return true }
        return false
        #else
        return true
        #endif
    }

    @Test func aStepInLibraryWorkNamesWhereThatWorkWasScheduled() throws {
        let service = ObservedSides<InWork>()
        let firstLine = #line + 1
        first.sync { service.touch() }
        let done = DispatchSemaphore(value: 0)
        let secondLine = #line + 1
        second.schedule {
            service.touch()
            done.signal()
        }
        done.wait()
        let steps = try steps(of: "ObservedSides<InWork>")
        #expect(steps.count == 2)
        let function = "aStepInLibraryWorkNamesWhereThatWorkWasScheduled()"
        let expected = [firstLine, secondLine]
        for (step, line) in zip(steps, expected) {
            let work = try #require(stepWork(step), "\(step)")
            #expect(work.line == line && work.file == thisFile && work.function == function, "\(step)")
        }
        // `sync` ran the first on the test's task (Swift Testing names it); the queue's thread runs none.
        #expect(steps.first?["taskName"] as? String != nil || !Self.taskNamesAreRead)
        #expect(steps.last?["taskName"] == nil)
    }

    @Test func aStepInANamedTaskNamesTheTask() async throws {
        let service = ObservedSides<InTask>()
        await Task(name: "Observe batch 7") { service.touch() }.value
        let step = try #require(try steps(of: "ObservedSides<InTask>").first)
        if Self.taskNamesAreRead { #expect(step["taskName"] as? String == "Observe batch 7") }
        #expect(step["work"] == nil, "a task runs no library work item")
    }

    /// A hand-off's step is made on the handing thread, for the new owner: what that thread runs is not
    /// the new user's, so the step says nothing about it.
    @Test func aHandOffStepCarriesNoWork() throws {
        let service = ObservedSides<HandedOff>()
        first.sync { service.touch() }
        first.sync { service.handOff(to: second) }
        let steps = try steps(of: "ObservedSides<HandedOff>")
        #expect(steps.count == 2)
        #expect(stepWork(steps[0]) != nil)
        #expect(steps.last?["member"] as? String == "handOff(to:)")
        #expect(steps.last?["work"] == nil && steps.last?["taskName"] == nil)
    }

    @Test func aStepInRawDispatchWorkCarriesNoWork() throws {
        let service = ObservedSides<RawQueue>()
        let queue = DispatchQueue(label: "observe-sides.raw")
        let done = DispatchSemaphore(value: 0)
        queue.async {
            service.touch()
            done.signal()
        }
        done.wait()
        let step = try #require(try steps(of: "ObservedSides<RawQueue>").first)
        #expect(step["work"] == nil && step["taskName"] == nil, "\(step)")
    }

    /// At the `observe` level a declared owner's step is the violation that would have been reported:
    /// its intruder side, read on the violating thread, gives the fields.
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn))
    func aDeclaredOwnersStepTakesTheReportsIntruderSide() throws {
        let policy = PolicyViolationHandler(ConfinementPolicy(default: .observe), output: { _ in })
        let secondLine = #line + 4
        withConfinementViolationHandler(policy) {
            let service = DeclaredSides(owner: first)
            first.sync { service.touch() }
            second.sync { service.touch() }
        }
        let step = try #require(try steps(of: "DeclaredSides").first)
        let work = try #require(stepWork(step), "\(step)")
        #expect(work.line == secondLine && work.file == thisFile)
        #expect(work.function == "aDeclaredOwnersStepTakesTheReportsIntruderSide()")
    }
}

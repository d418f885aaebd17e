// A program for the main-scheduler tests: the test process cannot run top-level code on its main
// thread (Swift's async entry point parks it in dispatchMain()), so this one does, then hands over to
// dispatchMain() itself. Exit status 0: every check passed; 10+: which check failed. With the argument
// "thread-scheduler" it touches a main-owned object from a thread scheduler, which must trap; with
// "default-owner-from-thread-scheduler", the same with an object owned by the main thread by default
// (`SchedulableObject(_:)`, no scheduler named). With
// "matrix <repetitions>" it runs the threading-model matrix's main-thread cells (Matrix.swift) and exits;
// with "report" it prints the report of a bad access made on the main thread (Report.swift) and exits;
// with "main-drain <repetitions>" it checks main-owned objects from main-queue work drained under
// dispatchMain() (MainDrain.swift) and exits; with "shared-records <repetitions>" it checks which
// fixed-owner objects made in their owner's work share a record, in a process without a test bridge
// (SharedRecords.swift), and exits; with "stack-capture <reports>" it makes reports on the main thread
// through a frame with a clobbered frame pointer (StackCapture.swift) and exits; with "observe" it uses
// two observed objects and exits normally, writing the observation file (Observe.swift); with "tiers" it
// exits 0 when the debug tier is compiled in (.ci/run's release-env step); with "crash <kind>" it makes a
// report and then crashes in that way (Crash.swift); with "summary <violations> <sites>" it makes that
// many reports and exits normally, printing the policy's summary (Summary.swift).

import CSchedulableContext
import Dispatch
import Schedulable

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A user-interface service. `@unchecked Sendable` so the probe can hand it to main-queue work and
/// to a worker: every use is checked (always-on tier), which is what the probe exercises.
final class Screen: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    private var renders = 0

    init(_ confinement: Confinement) {
        self.confinement = confinement
    }

    func render() -> Int {
        preconditionIsolated()
        renders += 1
        return renders
    }
}

/// A class that does not adopt `ConfinedObject`: only the `SchedulableObject` around it confines it.
final class Tally {
    private var count = 0

    func add() -> Int {
        count += 1
        return count
    }
}

func require(_ condition: Bool, _ code: Int32) {
    if !condition { exit(code) }
}

if CommandLine.arguments.dropFirst().first == "tiers" {
    // `SCHEDULABLE_RELEASE_CHECKS=1`, read by the manifest, is the trait's switch for builds that cannot
    // set traits (Xcode before 26.4, `xcodebuild`): .ci/run builds this program in release with it set,
    // and then the debug tier must be compiled in, with its stored bytes.
    let compiledIn = ConfinementSystem.debugChecksCompiledIn
    let stored = MemoryLayout<Confined<Int>>.size > MemoryLayout<Int>.size
    print("debug tier compiled in: \(compiledIn); Confined<Int> stores \(MemoryLayout<Confined<Int>>.size) bytes")
    exit(compiledIn && stored ? 0 : 1)
}

if CommandLine.arguments.dropFirst().first == "observe" {
    runObservation()
}

if CommandLine.arguments.dropFirst().first == "crash" {
    runCrash(CommandLine.arguments.dropFirst(2).first ?? "", CommandLine.arguments.dropFirst(3).first)
}

if CommandLine.arguments.dropFirst().first == "summary" {
    let counts = CommandLine.arguments.dropFirst(2).compactMap { Int($0) }
    runSummary(violations: counts.first ?? 1_000, sites: counts.dropFirst().first ?? 1)
}

if CommandLine.arguments.dropFirst().first == "report" {
    reportFromMainThread()
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "main-drain" {
    runMainDrainCells(repetitions: CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 200)
}

if CommandLine.arguments.dropFirst().first == "shared-records" {
    runSharedRecordCells(repetitions: CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 200)
}

if CommandLine.arguments.dropFirst().first == "stack-capture" {
    runStackCaptureOnMainThread(reports: CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 2_000)
}

if CommandLine.arguments.dropFirst().first == "matrix" {
    runMatrixCells(repetitions: CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 200)
    exit(0)
}

// Top-level code: the main thread itself.
require(csched_is_main_thread(), 10)
require(MainThreadScheduler.shared.isIsolated, 11)
let owned = Screen(Confinement(owner: MainThreadScheduler.shared))
require(owned.render() == 1, 12)
let detached = Screen(.detached())
require(detached.render() == 1, 13)  // Binds here: to the main thread.
require(detached.confinement.owner === ExecutionContext.main, 14)
// The main thread as the default owner: no owner named.
let ownedByDefault = Screen(Confinement())
require(ownedByDefault.confinement.owner === ExecutionContext.main, 19)
require(ownedByDefault.render() == 1, 20)
let handle = SchedulableObject(Tally())
require(handle.scheduler === MainThreadScheduler.shared, 21)
require(handle.isIsolated && handle.object.add() == 1, 22)

switch CommandLine.arguments.dropFirst().first {
case "isolation-trap":
    // Not linked with SchedulableTesting: a failed Swift isolation check is the runtime's trap.
    DispatchQueue.global().async { MainActor.assumeIsolated { _ = 1 } }
case "isolation-opt-in":
    // An app's debug run that opts in: the check is reported, once per site, and the program goes on.
    ConfinementSystem.reportSwiftIsolationChecks()
    DispatchQueue.global().async {
        for _ in 0..<3 { MainActor.assumeIsolated { _ = 1 } }
        ConfinementSystem.flushReports()
        exit(0)
    }
case "thread-scheduler":
    let worker = ThreadScheduler(label: "probe.worker")
    worker.schedule { _ = owned.render() }  // Not the main thread, not on its behalf: traps.
case "default-owner-from-thread-scheduler":
    let worker = ThreadScheduler(label: "probe.worker")
    worker.schedule { _ = handle.object.add() }  // Owned by main by default: traps the same way.
default:
    // Main-queue work drained by dispatchMain() (on Linux, on a worker thread).
    DispatchQueue.main.async {
        require(MainThreadScheduler.shared.isIsolated, 15)
        require(owned.render() == 2, 16)
        require(detached.render() == 2, 17)
        require(ownedByDefault.render() == 2, 23)
        require(handle.object.add() == 2, 24)
        // The wrapper's event API hops to main, which owns it by default.
        handle.schedule { tally in
            require(MainThreadScheduler.shared.isIsolated && tally.add() == 3, 25)
            MainThreadScheduler.shared.schedule {
                require(owned.render() == 3, 18)
                exit(0)
            }
        }
    }
}
dispatchMain()

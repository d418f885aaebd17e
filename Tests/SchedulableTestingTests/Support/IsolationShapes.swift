import Dispatch
import Foundation
import IsolationShapesLegacy
import Schedulable

/// The Swift 6 shapes whose isolation checks trap, each on one line that a test names: `line(of:)`
/// gives the line a failure must point at. The code is the kind a new user writes; the bodies touch
/// nothing shared, so a reported check that goes on running races with nothing.
@MainActor final class ProfileViewModel {
    private(set) var title = ""
    let tileCount = 8

    /// A closure formed here is inferred `@MainActor`; the Swift 5 module calls it on a global queue.
    func reload() {
        LegacyLoader.load { self.title = "loaded" }  // isolation: reload
    }

    /// ``reload()``'s shape on a line of its own: an issue of the run is made once per site in a process.
    func reloadInATestWithTheTrait() {
        LegacyLoader.load { self.title = "loaded" }  // isolation: reload-in-trait
    }

    /// `MainActor.assumeIsolated` in a completion handler of a nonisolated helper.
    nonisolated func reloadAssuming() {
        LegacyLoader.load { MainActor.assumeIsolated { _ = 1 } }  // isolation: assume
    }

    /// `MainActor.preconditionIsolated` in a completion handler.
    nonisolated func reloadChecking() {
        LegacyLoader.load { MainActor.preconditionIsolated() }  // isolation: precondition
    }

    /// A `@MainActor`-inferred closure that the Swift 5 module runs in parallel (`concurrentPerform`).
    func renderTiles() {
        LegacyLoader.forEachInParallel(tileCount) { _ in _ = self.tileCount }  // isolation: parallel
    }

    /// The explicit hop: a `@Sendable` completion that hops to the main actor before touching it.
    nonisolated func reloadHopping(_ done: @escaping @Sendable () -> Void) {
        LegacyLoader.load { @Sendable in Task { @MainActor in done() } }
    }
}

/// An actor whose method hands a closure (inferred isolated to the actor) to the Swift 5 module.
actor CredentialStore {
    private var refreshes = 0

    func refresh() {
        LegacyLoader.load { self.refreshes += 1 }  // isolation: actor
    }

    /// The actor's `preconditionIsolated`, asked by code that is not on it.
    nonisolated func checkHere() {
        preconditionIsolated()  // isolation: actor-precondition
    }
}

/// A `@MainActor` screen that is the Swift 5 notifier's delegate, through a `@preconcurrency`
/// conformance: the notifier calls it on its own queue.
@MainActor final class SettingsScreen: @preconcurrency LegacyDelegate {
    private(set) var finished = false

    func notifierDidFinish() {  // isolation: witness
        finished = true
    }
}

/// An actor that runs on a library scheduler's queue (a custom executor): its own `checkIsolated()`
/// decides, and code on that queue is isolated to it.
actor QueueBackedStore {
    let scheduler: SerialQueueScheduler
    private var writes = 0

    init(scheduler: SerialQueueScheduler) { self.scheduler = scheduler }

    nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }

    /// Called from work on `scheduler`'s queue: the actor is isolated there.
    nonisolated func writeFromItsQueue() {
        assumeIsolated { $0.writes += 1 }
    }
}

/// The line of this file that ends with `// isolation: <name>`.
func isolationShapeLine(_ name: String, file: String = #filePath) -> Int {
    IsolationShapeLines.lines[name] ?? 0
}

enum IsolationShapeLines {
    /// Read from this file's own text (next to the compiled code), so the tests never hard-code a line.
    static let lines: [String: Int] = {
        guard let text = try? String(contentsOfFile: #filePath, encoding: .utf8) else { return [:] }
        var found: [String: Int] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let range = line.range(of: "// isolation: ") else { continue }
            found[String(line[range.upperBound...])] = index + 1
        }
        return found
    }()
}

extension ProfileViewModel {
    /// `MainActor.assumeIsolated` on the calling thread.
    nonisolated static func assumeOnTheCallersThread() {
        MainActor.assumeIsolated { _ = 1 }  // isolation: assume-here
    }

    /// ``reloadAssuming()`` on a model made where a test runs.
    nonisolated static func reloadAssumingFromAnywhere() {
        ProfileViewModel().reloadAssuming()
    }

    /// ``reloadChecking()`` likewise.
    nonisolated static func reloadCheckingFromAnywhere() {
        ProfileViewModel().reloadChecking()
    }
}

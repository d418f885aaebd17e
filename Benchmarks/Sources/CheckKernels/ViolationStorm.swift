import Dispatch
import Foundation
import Schedulable

/// A protected object that a storm uses from the wrong threads.
final class StormTarget: ConfinedObject {
    let confinement: Confinement
    @Confined var value = 0

    init(owner: SerialQueueScheduler) {
        confinement = Confinement(owner: owner)
    }

    func touch() {
        assertIsolated()
    }
}

/// What one violation storm did.
public struct StormResult: Sendable {
    /// Threads × violations each.
    public let threads: Int, perThread: Int
    /// Wall-clock time of the storm.
    public let seconds: Double
    /// What the handler wrote, in lines and bytes (bounded, whatever the storm's size).
    public let outputLines: Int, outputBytes: Int
    /// The handler's summary: each site with its exact count.
    public let summary: String
    /// The total the summary counted: must equal threads × perThread (nothing lost).
    public let counted: Int
}

/// `threads` threads each make `perThread` violations (an `assertIsolated()` outside the owner) under
/// a warn-every-time policy whose output is captured. Needs the debug tier (`assertIsolated()`), so run
/// it from the ChecksOn build.
public func runViolationStorm(threads: Int = 4, perThread: Int = 250_000) -> StormResult {
    let written = NSLock()
    nonisolated(unsafe) var lines = 0
    nonisolated(unsafe) var bytes = 0
    let handler: BuiltInViolationHandler = .policy(ConfinementPolicy(default: .warn)) { text in
        written.withLock {
            lines += text.split(separator: "\n").count
            bytes += text.utf8.count
        }
    }
    let owner = SerialQueueScheduler(label: "benchmark.storm.owner")
    let target = withConfinementViolationHandler(handler) { StormTarget(owner: owner) }
    target.confinement.endConstruction()
    nonisolated(unsafe) let shared = target
    let group = DispatchGroup()
    let start = DispatchTime.now()
    for index in 0..<threads {
        group.enter()
        let thread = Thread {
            for _ in 0..<perThread { shared.touch() }
            group.leave()
        }
        thread.name = "storm-\(index)"
        thread.start()
    }
    group.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let summary = handler.summary ?? ""
    let counted = summary.split(separator: "\n").dropFirst().reduce(0) { total, line in
        total + (Int(line.drop(while: { $0 == " " }).prefix(while: { $0.isNumber })) ?? 0)
    }
    return written.withLock {
        StormResult(
            threads: threads, perThread: perThread, seconds: seconds, outputLines: lines, outputBytes: bytes,
            summary: summary, counted: counted
        )
    }
}

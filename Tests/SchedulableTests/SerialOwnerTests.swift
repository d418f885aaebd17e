import CSchedulableContext
import Dispatch
import Foundation
import Schedulable
import Testing

/// Owners are serial (the SchedulableObject article's third rule): `SerialQueueScheduler(wrapping:)`
/// refuses a concurrent queue where libdispatch's queue state says how wide it is (Linux, reader
/// confirmed), and accepts a serial queue whatever it targets. Where the width cannot be read, the
/// overlap detector is the safety net (`SchedulerInputTests.wrappedConcurrentQueueWithTheReaderOffIsReportedWhenBlocksOverlap`).
@Suite("Owners are serial")
struct SerialOwnerTests {
    static let repetitions = 200

    /// The reader's answer for the queues users make: 1 for serial ones, also one that targets a
    /// concurrent queue; more for concurrent ones, also one that targets a serial queue.
    @Test(.enabled(if: csched_dispatch_reader_confirmed())) func theReaderTellsSerialFromConcurrent() {
        let serial = DispatchQueue(label: "test.width.serial")
        let concurrent = DispatchQueue(label: "test.width.concurrent", attributes: .concurrent)
        #expect(PlatformInternals.width(of: serial) == 1)
        #expect(PlatformInternals.width(of: DispatchQueue(label: "test.width.on-global", target: .global())) == 1)
        #expect(PlatformInternals.width(of: DispatchQueue(label: "test.width.on-concurrent", target: concurrent)) == 1)
        #expect(PlatformInternals.width(of: SerialQueueScheduler(label: "test.width.tree").branch("leaf").queue) == 1)
        #expect((PlatformInternals.width(of: concurrent) ?? 0) > 1)
        #expect((PlatformInternals.width(of: DispatchQueue(label: "test.width.wide-on-serial", attributes: .concurrent, target: serial)) ?? 0) > 1)
        #expect((PlatformInternals.width(of: .global()) ?? 0) > 1)
    }

    /// Where the reader is off (here by its kill switch, as on Darwin by default), the width is "cannot
    /// tell", never a guess.
    @Test(.exitTest) func withTheReaderOffTheWidthIsUnknown() async {
        await #expect(processExitsWith: .success) {
            setenv("SCHEDULABLE_DISABLE_DISPATCH_READER", "1", 1)
            guard !csched_dispatch_reader_confirmed() else { exit(3) }
            let concurrent = DispatchQueue(label: "exit.width.unknown", attributes: .concurrent)
            guard PlatformInternals.width(of: concurrent) == nil else { exit(4) }
            guard PlatformInternals.width(of: DispatchQueue(label: "exit.width.unknown.serial")) == nil else { exit(5) }
        }
    }

    /// Every spelling of a concurrent queue is refused with an error that names the queue and the call
    /// site (a concurrent queue that targets a serial one too: its own width is what the scheduler sees).
    @Test(.enabled(if: csched_dispatch_reader_confirmed())) func wrappingAConcurrentQueueIsRefusedNamingTheQueueAndTheCallSite() {
        let serial = DispatchQueue(label: "test.refused.serial-target")
        let inactive = DispatchQueue(label: "test.refused.inactive", attributes: [.concurrent, .initiallyInactive])
        // libdispatch traps when an inactive queue is released: activate it once the test is done.
        defer { inactive.activate() }
        let queues = [
            DispatchQueue(label: "test.refused.concurrent", attributes: .concurrent),
            inactive,
            DispatchQueue(label: "test.refused.on-serial", attributes: .concurrent, target: serial),
        ]
        for queue in queues {
            let line = #line + 2
            do {
                _ = try SerialQueueScheduler(wrapping: queue)
                Issue.record("\(queue.label) was accepted")
            } catch {
                let site = CodeLocation(fileID: #fileID, line: line)
                #expect(error.callSite == site)
                #expect(error.description.contains("cannot wrap the concurrent queue \"\(queue.label)\""))
                #expect(error.description.hasSuffix("(at SchedulableTests/SerialOwnerTests.swift:\(line))"), "\(error)")
            }
        }
    }

    /// A serial queue that targets a concurrent queue is still serial: accepted, its work (the
    /// library's and raw blocks) passes its objects' checks, and no two of its blocks ever overlap —
    /// 200 blocks each way.
    @Test func aSerialQueueThatTargetsAConcurrentQueueIsAccepted() async throws {
        let recorder = ViolationRecorder()
        let concurrent = DispatchQueue(label: "test.accepted.pool", attributes: .concurrent)
        let targets: [DispatchQueue] = [.global(), concurrent]
        for (index, target) in targets.enumerated() {
            let raw = DispatchQueue(label: "test.accepted.serial.\(index)", target: target)
            let scheduler = try SerialQueueScheduler(wrapping: raw)
            #expect(scheduler.parent == nil)
            let counter = withConfinementViolationHandler(recorder) { Counter(owner: scheduler) }
            counter.confinement.endConstruction()
            let running = LockedValue(0)
            let overlaps = LockedValue(0)
            let passed = LockedValue(0)
            let group = DispatchGroup()
            for block in 0..<(2 * Self.repetitions) {
                group.enter()
                let work: @Sendable () -> Void = {
                    if running.withLock({ $0 += 1; return $0 }) > 1 { overlaps.withLock { $0 += 1 } }
                    counter.increment()
                    if counter.confinement.isIsolated { passed.withLock { $0 += 1 } }
                    running.withLock { $0 -= 1 }
                    group.leave()
                }
                if block.isMultiple(of: 2) { scheduler.schedule(work) } else { raw.async(execute: work) }
            }
            await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
            #expect(overlaps.withLock { $0 } == 0)
            #expect(passed.withLock { $0 } == 2 * Self.repetitions)
            #expect(scheduler.sync { counter.count } == 2 * Self.repetitions)
        }
        #expect(recorder.count == 0)
    }
}

import Dispatch
import Foundation
import Schedulable
import Testing

/// Fixed-owner and transferable confinements: what each costs (one reference; a release build without
/// the debug tier shares one settled record among the fixed objects built on their owner) and the
/// report on changing a fixed owner. Runs in every configuration (`swift test`, `-c release`, the
/// `ReleaseChecks` trait): the expectations follow `ConfinementSystem.debugChecksCompiledIn`.
@Suite("Fixed and transferable confinements")
struct FixedOwnerConfinementTests {
    static let repetitions = 200

    /// Whether fixed objects built on their owner share a record: release builds without the debug tier.
    static let shares = !ConfinementSystem.debugChecksCompiledIn

    /// Runs `body` outside any test: on a plain thread, where no test's handler is current. (Work a test
    /// hands to a scheduler carries the test, and an object created there captures the test's handler,
    /// so it has a record of its own, like one created in a `withConfinementViolationHandler` scope.)
    static func outsideAnyTest<Result>(_ body: @escaping @Sendable () -> Result) -> Result {
        nonisolated(unsafe) var result: Result?
        onPlainThread { result = body() }  // waits for the thread: its write happens before the read
        return result!
    }

    @Test func aConfinementIsOneReference() {
        #expect(MemoryLayout<Confinement>.size == 8)
        #expect(MemoryLayout<Confinement>.size == MemoryLayout<AnyObject>.size)
    }

    @Test func eachInitializerSaysWhetherTheOwnerIsFixed() {
        let owner = SerialQueueScheduler(label: "test.fixed.kinds")
        let options = ConfinementOptions<Counter>.exclude(.method("reset()"))
        #expect(Confinement(owner: owner).isFixed)
        #expect(Confinement().isFixed)
        #expect(Confinement(owner: owner, options: options).isFixed)
        #expect(Confinement(options: options).isFixed)
        #expect(!Confinement.transferable(owner: owner).isFixed)
        #expect(!Confinement.transferable(owner: owner, options: options).isFixed)
        #expect(!Confinement.detached().isFixed)
        #expect(!Confinement.detached(options: options).isFixed)
    }

    /// Two fixed objects built in their owner's work share one record in a release build without the
    /// debug tier, and have one each otherwise; a transferable one always has its own.
    @Test func fixedObjectsBuiltOnTheirOwnerShareOneRecordInRelease() {
        let owner = SerialQueueScheduler(label: "test.fixed.share")
        for _ in 0..<Self.repetitions {
            let (first, second, transferable) = Self.outsideAnyTest {
                owner.sync { (Counter(owner: owner), Counter(owner: owner), Counter(transferableOwner: owner)) }
            }
            // Made in a test's work, it captures the test's handler: a record of its own.
            let inTest = owner.sync { Counter(owner: owner) }
            #expect(!inTest.confinement.refersToSameRecord(as: first.confinement))
            #expect(first.confinement.refersToSameRecord(as: second.confinement) == Self.shares)
            #expect(!transferable.confinement.refersToSameRecord(as: first.confinement))
            #expect(!first.confinement.refersToSameRecord(as: Confinement.transferable(owner: owner)))
            // A shared record keeps no per-object bind site.
            #expect((first.confinement.boundAt == nil) == Self.shares)
            #expect(transferable.confinement.boundAt != nil)
            owner.sync {
                #expect(first.isIsolated && second.isIsolated && transferable.isIsolated)
                first.incrementAlways()
                second.incrementAlways()
            }
            #expect(!first.isIsolated && !second.isIsolated && !transferable.isIsolated)
            #expect(first.confinement.owner === owner.executionContext)
            #expect(first.confinement.ownerScheduler === owner)
        }
    }

    /// Where a record of its own is needed even in release: created off the owner where a construction
    /// window opens (library work of another scheduler), with options, or inside a test's scoped handler.
    @Test func aFixedObjectThatNeedsItsOwnStateGetsItsOwnRecord() {
        let owner = SerialQueueScheduler(label: "test.fixed.own.owner")
        let builder = SerialQueueScheduler(label: "test.fixed.own.builder")
        let recorder = ViolationRecorder()
        for _ in 0..<Self.repetitions {
            let onOwner = Self.outsideAnyTest { owner.sync { Counter(owner: owner) } }
            let (offOwner, usedInWindow) = Self.outsideAnyTest {
                builder.sync { () -> (Counter, Bool) in
                    let counter = Counter(owner: owner)
                    return (counter, counter.isIsolated)  // the window: the builder may use it
                }
            }
            #expect(usedInWindow)
            #expect(!offOwner.confinement.refersToSameRecord(as: onOwner.confinement))
            #expect(!offOwner.isIsolated)  // the builder handed work to a scheduler: the window is over
            let withHandler = owner.sync { withConfinementViolationHandler(recorder) { Counter(owner: owner) } }
            #expect(!withHandler.confinement.refersToSameRecord(as: onOwner.confinement))
            let withOptions = Self.outsideAnyTest {
                owner.sync { Confinement(owner: owner, options: ConfinementOptions<Counter>.exclude(.method("reset()"))) }
            }
            #expect(!withOptions.refersToSameRecord(as: onOwner.confinement))
        }
        #expect(recorder.count == 0)
    }

    /// The shared record is held by the scheduler and holds only the context: freeing the scheduler
    /// frees it (no object keeps it alive), and the objects still name their owner's context.
    @Test func theSharedRecordKeepsNoSchedulerAlive() {
        for _ in 0..<Self.repetitions {
            weak var weakScheduler: SerialQueueScheduler?
            let (counter, context) = { () -> (Counter, ExecutionContext) in
                let owner = SerialQueueScheduler(label: "test.fixed.lifetime")
                weakScheduler = owner
                // `unowned`: the plain thread may release its closure after the test reads the result.
                return (Self.outsideAnyTest { [unowned owner] in owner.sync { Counter(owner: owner) } }, owner.executionContext)
            }()
            #expect(weakScheduler == nil)
            #expect(counter.confinement.owner === context)
            #expect(counter.confinement.ownerScheduler == nil)
            #expect(!counter.isIsolated)
        }
    }

    /// The report's content, built where a hand-off of a fixed record builds it.
    @Test func theReportNamesTheObjectTheCallSiteAndTheFix() {
        let owner = SerialQueueScheduler(label: "test.fixed.report")
        let counter = Counter(owner: owner)
        let site = CodeLocation(fileID: "App/Uploads.swift", line: 12)
        let violation = ConfinementViolation.fixedOwnerChanged(
            member: .method("handOff(to:)", callSite: PackedCodeLocation(file: "App/Move.swift", line: 7)),
            object: counter, owner: owner.executionContext, boundAt: site,
            newOwner: SerialQueueScheduler(label: "test.fixed.report.new").executionContext
        )
        #expect(violation.kind == .fixedOwnerChanged)
        #expect(violation.kind.rawValue == "fixedOwnerChanged")
        #expect(violation.tier == .precondition)
        let text = violation.description
        #expect(text.hasPrefix("Schedulable: Counter.handOff(to:) called on an object whose owner is fixed"))
        #expect(text.contains("  object:          Counter (0x"))
        #expect(text.contains("  call site:       App/Move.swift:7"))
        #expect(text.contains("  owner bound at:  App/Uploads.swift:12"))
        #expect(text.contains("created with a fixed owner at App/Uploads.swift:12"))
        #expect(text.contains("hand it off to queue \"test.fixed.report.new\""))
        #expect(text.contains("create it with `Confinement.transferable(owner:)`"))
        #expect(violation.trapMessage.hasPrefix("Schedulable: fixed owner changed: Counter.handOff(to:)"))
        #expect(violation.jsonLine().contains("\"kind\":\"fixedOwnerChanged\""))
        let shared = ConfinementViolation.fixedOwnerChanged(
            member: .method("detach()", callSite: .none), object: nil, owner: owner.executionContext, boundAt: nil,
            newOwner: nil
        )
        #expect(shared.description.contains("asked to detach it"))
        #expect(shared.description.contains("keeps no per-object site"))
        #expect(!shared.description.contains("  object:"))
    }

    /// `handOff(to:)` on a fixed object: reported at the precondition tier, then the process stops. The
    /// handler sees the owner unchanged.
    @Test(.exitTest) func handingOffAFixedObjectIsReportedAndTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let owner = SerialQueueScheduler(label: "exit.fixed.owner")
            let other = SerialQueueScheduler(label: "exit.fixed.other")
            let counter = FixedOwnerConfinementTests.outsideAnyTest { owner.sync { Counter(owner: owner) } }
            let recording = CustomViolationHandler { violation in
                let line = "recorded \(violation.kind) by \(violation.qualifiedMember); owner now "
                    + "\(counter.confinement.owner?.description ?? "none")\n"
                FileHandle.standardError.write(Data(line.utf8))
            }
            owner.sync { withConfinementViolationHandler(recording) { counter.handOff(to: other) } }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("recorded fixedOwnerChanged by Counter.handOff(to:); owner now queue \"exit.fixed.owner\""))
            #expect(stderr.contains("Schedulable: Counter.handOff(to:) called on an object whose owner is fixed"))
            #expect(stderr.contains("  object:          Counter (0x"))
            #expect(stderr.contains("  call site:       SchedulableTests/FixedOwnerConfinementTests.swift:"))
            #expect(stderr.contains("create it with `Confinement.transferable(owner:)`"))
            #expect(stderr.contains("Fatal error: Schedulable: fixed owner changed: Counter.handOff(to:)"))
            // Release without the debug tier shares the record: no bind site to name.
            #expect(stderr.contains("owner bound at:  SchedulableTests/ViolationRecorder.swift:") == !Self.shares)
            #expect(stderr.contains("keeps no per-object site") == Self.shares)
        }
    }

    /// A transferable object changes hands in every build, through the object.
    @Test func aTransferableObjectIsHandedOffThroughTheObject() {
        let first = SerialQueueScheduler(label: "test.fixed.transfer.first")
        let second = SerialQueueScheduler(label: "test.fixed.transfer.second")
        for _ in 0..<Self.repetitions {
            let counter = first.sync { Counter(transferableOwner: first) }
            first.sync { counter.handOff(to: second) }
            #expect(second.sync { counter.isIsolated })
            #expect(!first.sync { counter.isIsolated })
            second.sync { counter.detach() }
            #expect(counter.confinement.owner == nil)
        }
    }
}

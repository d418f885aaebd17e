import Dispatch
import Foundation
import Schedulable
import Testing

/// The main thread is the default owner, as POSSchedulableObject's plain `init` scheduled its object
/// on the main thread: `Confinement()` and `SchedulableObject(_:)` name no scheduler and mean
/// `MainThreadScheduler.shared`. (Every cell of the threading-model matrix runs this spelling too:
/// `MatrixOwner.mainByDefault`; its top-level cells run in `schedulable-main-probe`.)
@Suite("The main thread as the default owner")
struct MainDefaultOwnerTests {
    static let repetitions = 200

    /// A view model's record, spelled the short way.
    final class ProfileViewModel: ConfinedObject, @unchecked Sendable {
        let confinement: Confinement
        @Confined var name = ""

        init(_ confinement: Confinement = Confinement()) {
            self.confinement = confinement
        }

        func rename(_ newName: String) {
            assertIsolated()
            name = newName
        }

        /// Thread-safe by itself (it only schedules work): the options exclude it.
        func scheduleAvatarRefresh() {
            assertIsolated()
        }
    }

    @Test func aRecordWithNoOwnerNamedBelongsToTheMainThread() {
        let line = #line + 1
        let record = Confinement()
        #expect(record.owner === ExecutionContext.main)
        #expect(record.ownerScheduler === MainThreadScheduler.shared)
        #expect(record.boundAt == CodeLocation(fileID: #fileID, line: line))
    }

    /// The same record as with the explicit owner: a use off the main thread is reported, every time,
    /// and the report names "main thread" as the expected owner and this file as the bind site.
    @Test func usesOffTheMainThreadAreReportedNamingTheMainThread() async {
        let recorder = ViolationRecorder()
        var answers: [Bool: Int] = [:]
        for _ in 0..<Self.repetitions {
            let model = withConfinementViolationHandler(recorder) { ProfileViewModel() }
            model.confinement.endConstruction()
            let isolated = await onRawQueue(.global()) { () -> Bool in
                let isolated = model.confinement.isIsolated
                model.rename("off main")   // reported (debug tier); the recorder lets it go on, alone here
                return isolated
            }
            answers[isolated, default: 0] += 1
        }
        #expect(answers == [false: Self.repetitions])
        // Each repetition: the method's guard and the property it sets.
        let reports = recorder.violations
        #expect(reports.count == expectedDebugTier(2 * Self.repetitions))
        #expect(reports.filter { $0.member == "rename(_:)" }.count == expectedDebugTier(Self.repetitions))
        #expect(reports.allSatisfy { $0.expectedOwner == "main thread" })
        #expect(reports.allSatisfy { $0.ownerBoundAt?.fileID == "SchedulableTests/MainDefaultOwnerTests.swift" })
    }

    /// Main-queue work (drained by `dispatchMain()` in this process) is the owner's work: nothing is
    /// reported, every time.
    @Test func mainQueueWorkPasses() async {
        let recorder = ViolationRecorder()
        var passed = 0
        for _ in 0..<Self.repetitions {
            let model = withConfinementViolationHandler(recorder) { ProfileViewModel() }
            model.confinement.endConstruction()
            let isolated = await onScheduler(MainThreadScheduler.shared) { () -> Bool in
                model.rename("on main")
                return model.confinement.isIsolated
            }
            if isolated { passed += 1 }
        }
        #expect(passed == Self.repetitions)
        #expect(recorder.count == 0)
    }

    /// `Confinement(options:)`: main-owned, checking only what the options select.
    @Test func optionsWithTheDefaultOwner() async {
        let recorder = ViolationRecorder()
        let model = withConfinementViolationHandler(recorder) {
            ProfileViewModel(Confinement(options: ConfinementOptions<ProfileViewModel>.exclude(.method("scheduleAvatarRefresh()"))))
        }
        model.confinement.endConstruction()
        #expect(model.confinement.owner === ExecutionContext.main)
        await onRawQueue(.global()) {
            model.scheduleAvatarRefresh()   // excluded: not checked
            model.rename("checked")         // reported (debug tier)
        }
        // The method's guard and the property it sets; nothing for the excluded method.
        #expect(recorder.count == expectedDebugTier(2))
        #expect(recorder.members.filter { $0 == "rename(_:)" }.count == expectedDebugTier(1))
        #expect(!recorder.members.contains("scheduleAvatarRefresh()"))
        #expect(recorder.violations.allSatisfy { $0.expectedOwner == "main thread" })
    }

    /// `SchedulableObject(_:)` with no scheduler: the main scheduler, and a confined object's own
    /// record bound there too; its event API runs the work on main, every time.
    @Test func aWrapperWithNoSchedulerBelongsToTheMainThread() async throws {
        let plain = SchedulableObject([1, 2, 3])
        #expect(plain.scheduler === MainThreadScheduler.shared)
        let model = SchedulableObject(ProfileViewModel(Confinement(owner: SerialQueueScheduler(label: "test.default.rebound"))))
        #expect(model.scheduler === MainThreadScheduler.shared)
        var onMain = 0
        for index in 0..<Self.repetitions {
            let seen = await model.run { model -> Bool in
                model.rename("name \(index)")
                return MainThreadScheduler.shared.isIsolated && model.confinement.owner === ExecutionContext.main
            }
            if seen { onMain += 1 }
        }
        #expect(onMain == Self.repetitions)
        #expect(await plain.run { $0.count } == 3)
    }

    /// The wrapper's direct access checks in every build: off the main thread it stops the process,
    /// after a report that names the main thread.
    @Test(.exitTest) func aWrapperWithNoSchedulerStopsAnAccessOffTheMainThread() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let numbers = SchedulableObject([1, 2, 3])
            _ = DispatchQueue(label: "exit.default.intruder").sync { numbers.object.count }
        }.map { result in
            let stderr = standardErrorText(result)
            #expect(stderr.contains("SchedulableObject<Array<Int>>.object used outside its owner"))
            #expect(stderr.contains("expected owner:  main thread"))
            #expect(stderr.contains("owner bound at:  SchedulableTests/MainDefaultOwnerTests.swift:"))
        }
    }
}

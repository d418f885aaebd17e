import Dispatch
import Foundation
import Schedulable
import Testing

/// A `@MainActor` class is Swift's to check; its `nonisolated(unsafe)` members are not, and Getting
/// Started's spelling checks them: a `SchedulerBound` owned by the main thread in the stored property.
/// This file compiles in Swift 6 mode with warnings as errors (the build CI makes), which is half of
/// what it shows: `@Confined` there warns, and the attribute's fix-it does not compile.
@Suite("A @MainActor class's nonisolated(unsafe) member")
struct MainActorNonisolatedMemberTests {
    @Test @MainActor func theMainActorUsesTheMemberWithoutAReport() {
        let model = SyncStatusModel()
        for _ in 0..<200 { model.syncFinished() }
        #expect(model.lastSync.value == 200)
        #expect(model.lastSync.isIsolated)
    }

    /// Off the main thread the box says "no", every time, in every build.
    @Test func anotherThreadIsNotTheOwner() {
        let model = SyncStatusModel()
        let answers = (0..<200).map { _ in DispatchQueue(label: "test.mainactor.other").sync { model.lastSync.isIsolated } }
        #expect(answers == Array(repeating: false, count: 200))
    }

    /// The write the compiler lets through from a callback off the main thread is reported and stops
    /// the process, in every build: the always-on tier backs the unchecked claim.
    @Test(.exitTest) func aWriteFromAnotherThreadIsReported() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = SyncStatusModel()
            DispatchQueue(label: "test.mainactor.callback").sync { model.syncFinished() }
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains("Schedulable: SchedulerBound<Int>.value used outside its owner"))
            #expect(stderr.contains("expected owner:  main thread"))
        }
    }
}

/// Getting Started's `@MainActor` class, as printed there.
@MainActor
final class SyncStatusModel: Sendable {
    var title = "Idle"
    nonisolated(unsafe) var lastSync = SchedulerBound(0, owner: MainThreadScheduler.shared)

    nonisolated func syncFinished() {
        lastSync.value += 1
    }
}

import Dispatch
import Schedulable
import Testing

/// Options mirror POSScheduleProtectionOptions: default, include, exclude, chainable, predicate.
@Suite("Options")
struct OptionsTests {
    final class Panel: ScheduleProtectable, @unchecked Sendable {
        let scheduleProtection: ScheduleProtection
        @ScheduleProtected(name: "title") var title = ""
        @ScheduleProtected(name: "isVisible") var isVisible = false
        @ScheduleProtected(name: "_cache") var cache = 0

        init(owner: QueueScheduler, options: ScheduleProtectionOptions<Panel>) {
            scheduleProtection = ScheduleProtection(owner: owner, options: options)
        }

        func show() { assertScheduled() }
        func hide() { assertScheduled() }
        func _refresh() { assertScheduled() }

        /// Touches every guarded member once, from wherever it is called.
        func touchEverything() {
            _ = title
            _ = isVisible
            _ = cache
            show()
            hide()
            _refresh()
        }
    }

    /// The members reported when every member is used from the wrong thread.
    func reportedMembers(_ options: ScheduleProtectionOptions<Panel>) -> Set<String> {
        let recorder = ViolationRecorder()
        let owner = QueueScheduler(label: "test.options")
        let panel = withScheduleViolationHandler(recorder) { Panel(owner: owner, options: options) }
        owner.sync { _ = panel.title }
        DispatchQueue(label: "test.options.intruder").sync { panel.touchEverything() }
        return Set(recorder.members)
    }

    let everything: Set<String> = ["title", "isVisible", "_cache", "show()", "hide()", "_refresh()"]

    func expected(_ members: Set<String>) -> Set<String> {
        ScheduleProtectionSystem.debugChecksCompiledIn ? members : []
    }

    @Test func defaultChecksEveryGuardedMember() {
        #expect(reportedMembers(.default) == expected(everything))
    }

    @Test func excludeByKeyPathAndMethodName() {
        let options = ScheduleProtectionOptions<Panel>.exclude(.property(\Panel.isVisible), .method("hide()"))
        #expect(reportedMembers(options) == expected(["title", "_cache", "show()", "_refresh()"]))
    }

    @Test func includeOnlyListedMembers() {
        let options = ScheduleProtectionOptions<Panel>.include(.property(\Panel.title), .method("show()"))
        #expect(reportedMembers(options) == expected(["title", "show()"]))
    }

    @Test func chainedIncludeAndExclude() {
        let options = ScheduleProtectionOptions<Panel>.include(.property(\Panel.title))
            .including(.method("show()"), .method("hide()"))
            .excluding(.method("show()"))
        #expect(reportedMembers(options) == expected(["title", "hide()"]))
    }

    @Test func predicateOverMemberNamesLikePOSSelectorFilter() {
        let options = ScheduleProtectionOptions<Panel>.include(where: { !$0.hasPrefix("_") })
        #expect(reportedMembers(options) == expected(["title", "isVisible", "show()", "hide()"]))
    }

    @Test func exclusionWinsOverInclusionAndPredicate() {
        let options = ScheduleProtectionOptions<Panel>.include(.property(\Panel.title), .method("show()"))
            .including(where: { $0 == "title" })
            .excluding(.property(\Panel.title))
        #expect(reportedMembers(options) == expected(["show()"]))
    }

    @Test func propertyOptionReachingNoProtectedPropertyIsReportedWithItsCallSite() {
        final class Misconfigured: ScheduleProtectable, @unchecked Sendable {
            static let owner = QueueScheduler(label: "test.options.misconfigured")
            let scheduleProtection = ScheduleProtection(
                owner: Misconfigured.owner,
                options: ScheduleProtectionOptions<Misconfigured>.exclude(.property(\Misconfigured.plain))
            )
            var plain = 0
            @ScheduleProtected(name: "guarded") var guarded = 0
        }
        let recorder = ViolationRecorder()
        let object = withScheduleViolationHandler(recorder) { Misconfigured() }
        Misconfigured.owner.sync { object.guarded += 1 }
        let invalid = recorder.violations.filter { $0.kind == .invalidOption }
        #expect(invalid.count == expectedDebugTier(1))
        if let violation = invalid.first {
            #expect(violation.objectType == "Misconfigured")
            #expect(violation.callSite?.fileID == "SchedulableTests/OptionsTests.swift")
            #expect(violation.detail?.contains("reaches no @ScheduleProtected property of Misconfigured") == true)
        }
        #expect(recorder.violations.filter { $0.kind == .wrongContext }.isEmpty)
    }

    @Test func propertyOptionsAreResolvedEvenWhenOwnerAlwaysTakesTheFastPath() {
        final class OnOwner: ScheduleProtectable, @unchecked Sendable {
            let scheduleProtection: ScheduleProtection
            @ScheduleProtected(name: "noisy") var noisy = 0
            @ScheduleProtected(name: "quiet") var quiet = 0
            init(owner: QueueScheduler) {
                scheduleProtection = ScheduleProtection(
                    owner: owner, options: ScheduleProtectionOptions<OnOwner>.exclude(.property(\OnOwner.quiet))
                )
            }
        }
        let recorder = ViolationRecorder()
        let owner = QueueScheduler(label: "test.options.onOwner")
        // Built on the owner itself: no construction window, yet the options must still apply.
        let object = owner.sync { withScheduleViolationHandler(recorder) { OnOwner(owner: owner) } }
        owner.sync { object.noisy += 1 }
        DispatchQueue(label: "test.options.onOwner.intruder").sync {
            object.quiet += 1
            object.noisy += 1
        }
        #expect(recorder.members == (ScheduleProtectionSystem.debugChecksCompiledIn ? ["noisy"] : []))
    }

    @Test func excludedMemberDoesNotBindDetachedObject() {
        final class Lazy: ScheduleProtectable, @unchecked Sendable {
            let scheduleProtection = ScheduleProtection.detached(
                options: ScheduleProtectionOptions<Lazy>.exclude(.method("describe()"))
            )
            func describe() { assertScheduled() }
            func mutate() { assertScheduled() }
        }
        let recorder = ViolationRecorder()
        let lazy = withScheduleViolationHandler(recorder) { Lazy() }
        let owner = QueueScheduler(label: "test.options.lazy")
        DispatchQueue(label: "test.options.elsewhere").sync { lazy.describe() }
        #expect(lazy.scheduleProtection.owner == nil)
        owner.sync { lazy.mutate() }
        if ScheduleProtectionSystem.debugChecksCompiledIn {
            #expect(lazy.scheduleProtection.owner?.label == "test.options.lazy")
        }
        #expect(recorder.count == 0)
    }
}

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

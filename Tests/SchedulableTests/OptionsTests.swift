import Dispatch
import Schedulable
import Testing

/// Options mirror POSScheduleProtectionOptions: default, include, exclude, chainable, predicate.
@Suite("Options")
struct OptionsTests {
    final class Panel: ConfinedObject, @unchecked Sendable {
        let confinement: Confinement
        @Confined(name: "title") var title = ""
        @Confined(name: "isVisible") var isVisible = false
        @Confined(name: "_cache") var cache = 0

        init(owner: SerialQueueScheduler, options: ConfinementOptions<Panel>) {
            confinement = Confinement(owner: owner, options: options)
        }

        func show() { assertIsolated() }
        func hide() { assertIsolated() }
        func _refresh() { assertIsolated() }

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
    func reportedMembers(_ options: ConfinementOptions<Panel>) -> Set<String> {
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.options")
        let panel = withConfinementViolationHandler(recorder) { Panel(owner: owner, options: options) }
        owner.sync { _ = panel.title }
        DispatchQueue(label: "test.options.intruder").sync { panel.touchEverything() }
        return Set(recorder.members)
    }

    let everything: Set<String> = ["title", "isVisible", "_cache", "show()", "hide()", "_refresh()"]

    func expected(_ members: Set<String>) -> Set<String> {
        ConfinementSystem.debugChecksCompiledIn ? members : []
    }

    @Test func defaultChecksEveryGuardedMember() {
        #expect(reportedMembers(.default) == expected(everything))
    }

    @Test func excludeByKeyPathAndMethodName() {
        let options = ConfinementOptions<Panel>.exclude(.property(\Panel.isVisible), .method("hide()"))
        #expect(reportedMembers(options) == expected(["title", "_cache", "show()", "_refresh()"]))
    }

    @Test func includeOnlyListedMembers() {
        let options = ConfinementOptions<Panel>.include(.property(\Panel.title), .method("show()"))
        #expect(reportedMembers(options) == expected(["title", "show()"]))
    }

    @Test func chainedIncludeAndExclude() {
        let options = ConfinementOptions<Panel>.include(.property(\Panel.title))
            .including(.method("show()"), .method("hide()"))
            .excluding(.method("show()"))
        #expect(reportedMembers(options) == expected(["title", "hide()"]))
    }

    @Test func predicateOverMemberNamesLikePOSSelectorFilter() {
        let options = ConfinementOptions<Panel>.include(where: { !$0.hasPrefix("_") })
        #expect(reportedMembers(options) == expected(["title", "isVisible", "show()", "hide()"]))
    }

    @Test func exclusionWinsOverInclusionAndPredicate() {
        let options = ConfinementOptions<Panel>.include(.property(\Panel.title), .method("show()"))
            .including(where: { $0 == "title" })
            .excluding(.property(\Panel.title))
        #expect(reportedMembers(options) == expected(["show()"]))
    }

    @Test func propertyOptionReachingNoProtectedPropertyIsReportedWithItsCallSite() {
        final class Misconfigured: ConfinedObject, @unchecked Sendable {
            static let owner = SerialQueueScheduler(label: "test.options.misconfigured")
            let confinement = Confinement(
                owner: Misconfigured.owner,
                options: ConfinementOptions<Misconfigured>.exclude(.property(\Misconfigured.plain))
            )
            var plain = 0
            @Confined(name: "guarded") var guarded = 0
        }
        let recorder = ViolationRecorder()
        let object = withConfinementViolationHandler(recorder) { Misconfigured() }
        Misconfigured.owner.sync { object.guarded += 1 }
        let invalid = recorder.violations.filter { $0.kind == .invalidOption }
        #expect(invalid.count == expectedDebugTier(1))
        if let violation = invalid.first {
            #expect(violation.objectType == "Misconfigured")
            #expect(violation.callSite?.fileID == "SchedulableTests/OptionsTests.swift")
            #expect(violation.detail?.contains("reaches no @Confined property of Misconfigured") == true)
        }
        #expect(recorder.violations.filter { $0.kind == .wrongContext }.isEmpty)
    }

    @Test func propertyOptionsAreResolvedEvenWhenOwnerAlwaysTakesTheFastPath() {
        final class OnOwner: ConfinedObject, @unchecked Sendable {
            let confinement: Confinement
            @Confined(name: "noisy") var noisy = 0
            @Confined(name: "quiet") var quiet = 0
            init(owner: SerialQueueScheduler) {
                confinement = Confinement(
                    owner: owner, options: ConfinementOptions<OnOwner>.exclude(.property(\OnOwner.quiet))
                )
            }
        }
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.options.onOwner")
        // Built on the owner itself: no construction window, yet the options must still apply.
        let object = owner.sync { withConfinementViolationHandler(recorder) { OnOwner(owner: owner) } }
        owner.sync { object.noisy += 1 }
        DispatchQueue(label: "test.options.onOwner.intruder").sync {
            object.quiet += 1
            object.noisy += 1
        }
        #expect(recorder.members == (ConfinementSystem.debugChecksCompiledIn ? ["noisy"] : []))
    }

    /// Options hold from an object's first access, even off the owner before the owner ever used it:
    /// key paths are matched once per type (by reading the property where that is safe), and every
    /// later object uses the match without reading anything. 200 objects, each used only off its owner.
    @Test func optionsHoldFromTheFirstAccessOffTheOwner() {
        final class Gauge: ConfinedObject, @unchecked Sendable {
            let confinement: Confinement
            @Confined(name: "reading") var reading = 0
            @Confined(name: "label") var label = ""
            init(owner: SerialQueueScheduler, options: ConfinementOptions<Gauge>) {
                confinement = Confinement(owner: owner, options: options)
            }
        }
        let recorder = ViolationRecorder()
        let owner = SerialQueueScheduler(label: "test.options.first")
        let intruder = DispatchQueue(label: "test.options.first.intruder")
        let exclude = ConfinementOptions<Gauge>.exclude(.property(\Gauge.reading))
        let includeOnly = ConfinementOptions<Gauge>.include(.property(\Gauge.reading))
        // The type's first object is used on its owner: that is where the key path is matched.
        let first = withConfinementViolationHandler(recorder) { Gauge(owner: owner, options: exclude) }
        owner.sync { first.reading += 1 }
        let excluding = ViolationRecorder()
        let including = ViolationRecorder()
        for index in 0..<200 {
            let options = index.isMultiple(of: 2) ? exclude : includeOnly
            let gauge = withConfinementViolationHandler(index.isMultiple(of: 2) ? excluding : including) {
                Gauge(owner: owner, options: options)
            }
            gauge.confinement.endConstruction()     // published: from here on only the owner passes
            intruder.sync {
                gauge.reading += 1
                gauge.label = "off the owner"
            }
        }
        #expect(recorder.count == 0)
        // Excluding `reading` leaves `label` checked; including only `reading` leaves `label` unchecked.
        #expect(excluding.members == Array(repeating: "label", count: expectedDebugTier(100)))
        #expect(including.members == Array(repeating: "reading", count: expectedDebugTier(100)))
    }

    @Test func excludedMemberDoesNotBindDetachedObject() {
        final class Lazy: ConfinedObject, @unchecked Sendable {
            let confinement = Confinement.detached(
                options: ConfinementOptions<Lazy>.exclude(.method("describe()"))
            )
            func describe() { assertIsolated() }
            func mutate() { assertIsolated() }
        }
        let recorder = ViolationRecorder()
        let lazy = withConfinementViolationHandler(recorder) { Lazy() }
        let owner = SerialQueueScheduler(label: "test.options.lazy")
        DispatchQueue(label: "test.options.elsewhere").sync { lazy.describe() }
        #expect(lazy.confinement.owner == nil)
        owner.sync { lazy.mutate() }
        if ConfinementSystem.debugChecksCompiledIn {
            #expect(lazy.confinement.owner?.label == "test.options.lazy")
        }
        #expect(recorder.count == 0)
    }
}

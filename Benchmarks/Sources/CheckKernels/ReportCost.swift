import Dispatch
import Schedulable

/// A protected object whose property a report-cost run reads from the wrong queue.
final class ReportTarget: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    @Confined var value = 0

    init(owner: SerialQueueScheduler) {
        confinement = Confinement(owner: owner)
    }
}

/// The cost of delivered reports: a violation made and its whole text built (what every printing
/// handler, the JSON Lines sink and a test failure do).
public struct ReportCost: Sendable {
    /// Frames the reports' stacks had (``ConfinementSystem/reportStackDepth``; 0: no stack).
    public let stackDepth: Int
    /// The process's first report: symbolication reads the image's debug information.
    public let firstNanoseconds: Double
    /// Each later report from the same site (its addresses symbolicated once), median of `reports`.
    public let warmNanoseconds: Double
    public let reports: Int
    /// A report from a site not seen before, once the image's debug information is read: median of
    /// ``newSiteCount`` sites.
    public var newSiteNanoseconds: Double = 0
    /// How many new sites ``newSiteNanoseconds`` is the median of.
    public var newSiteCount: Int { newSites.count }
    /// A repeat of a known site under `warn-once` (counted, printed only at each doubling): median of
    /// ``repeats``; 0 where not measured.
    public var repeatNanoseconds: Double = 0
    public var repeats = 0
}

@inline(never)
func readOffOwner(_ target: ReportTarget) -> Int {
    target.value
}

/// Sites not seen before: each reads the property from a function of its own.
@inline(never) func readAtSite0(_ target: ReportTarget) -> Int { target.value }
@inline(never) func readAtSite1(_ target: ReportTarget) -> Int { target.value + 1 }
@inline(never) func readAtSite2(_ target: ReportTarget) -> Int { target.value + 2 }
@inline(never) func readAtSite3(_ target: ReportTarget) -> Int { target.value + 3 }
@inline(never) func readAtSite4(_ target: ReportTarget) -> Int { target.value + 4 }
@inline(never) func readAtSite5(_ target: ReportTarget) -> Int { target.value + 5 }
@inline(never) func readAtSite6(_ target: ReportTarget) -> Int { target.value + 6 }
@inline(never) func readAtSite7(_ target: ReportTarget) -> Int { target.value + 7 }
let newSites: [@Sendable (ReportTarget) -> Int] = [
    readAtSite0, readAtSite1, readAtSite2, readAtSite3, readAtSite4, readAtSite5, readAtSite6, readAtSite7,
]

/// The median cost of one report from each of ``newSites``, timed by `samples` around each read.
private func newSiteMedian(_ target: ReportTarget, _ samples: ReportSamples) -> Double {
    let before = samples.durations.count
    for site in newSites {
        samples.start()
        consume(site(target))
        samples.stop()
    }
    let sorted = samples.durations[before...].sorted()
    return sorted[sorted.count / 2]
}

/// Makes `reports` violations of one property from a queue that is not its owner, each delivered to a
/// handler that builds its text. Needs the debug tier (`@Confined`): run it from the ChecksOn build.
public func measureReportCost(stackDepth: Int, reports: Int = 2_000) -> ReportCost {
    ConfinementSystem.reportStackDepth = stackDepth
    let owner = SerialQueueScheduler(label: "benchmark.report.owner")
    let samples = ReportSamples()
    let handler: BuiltInViolationHandler = .custom { violation in
        consume(violation.description.utf8.count)
        samples.stop()
    }
    let target = withConfinementViolationHandler(handler) { ReportTarget(owner: owner) }
    target.confinement.endConstruction()
    let other = DispatchQueue(label: "benchmark.report.other")
    other.sync {
        for _ in 0...reports {
            samples.start()
            consume(readOffOwner(target))
        }
    }
    let sorted = samples.durations.dropFirst().sorted()
    var cost = ReportCost(
        stackDepth: stackDepth, firstNanoseconds: samples.durations.first ?? 0,
        warmNanoseconds: sorted.isEmpty ? 0 : sorted[sorted.count / 2], reports: sorted.count
    )
    // The handler stops each sample; the new sites' reads start theirs (`stop` comes from the handler).
    let newSiteSamples = ReportSamples()
    let newSiteHandler: BuiltInViolationHandler = .custom { violation in
        consume(violation.description.utf8.count)
    }
    let newSiteTarget = withConfinementViolationHandler(newSiteHandler) { ReportTarget(owner: owner) }
    newSiteTarget.confinement.endConstruction()
    other.sync { cost.newSiteNanoseconds = newSiteMedian(newSiteTarget, newSiteSamples) }
    return cost
}

/// What a report costs the violating thread under a printing policy (`warn`) that writes to standard
/// error, as the default handler and `SCHEDULABLE_CONFINEMENT` do: the violation made, counted, its
/// headline written (unless `SCHEDULABLE_HEADLINES=off`) and handed to the reporting thread, which
/// symbolicates and writes it elsewhere. Each report is a new object's first violation under a new
/// handler, so every one is a full report; `reports` stays under the reporting thread's queue capacity,
/// so none waits for room. Then the repeats of one site under `warn-once`, which print only at each
/// doubling. Run with standard error sent somewhere (a file, as a service's log is).
public func measureWarnReportCost(stackDepth: Int, reports: Int = 500) -> ReportCost {
    ConfinementSystem.reportStackDepth = stackDepth
    let owner = SerialQueueScheduler(label: "benchmark.report.warn.owner")
    let samples = ReportSamples()
    let other = DispatchQueue(label: "benchmark.report.warn.other")
    for _ in 0...reports {
        let handler: BuiltInViolationHandler = .policy(ConfinementPolicy(default: .warn))
        let target = withConfinementViolationHandler(handler) { ReportTarget(owner: owner) }
        target.confinement.endConstruction()
        other.sync {
            samples.start()
            consume(readOffOwner(target))
            samples.stop()
        }
    }
    let sorted = samples.durations.dropFirst().sorted()
    var cost = ReportCost(
        stackDepth: stackDepth, firstNanoseconds: samples.durations.first ?? 0,
        warmNanoseconds: sorted.isEmpty ? 0 : sorted[sorted.count / 2], reports: sorted.count
    )
    let handler: BuiltInViolationHandler = .policy(ConfinementPolicy(default: .warn))
    let target = withConfinementViolationHandler(handler) { ReportTarget(owner: owner) }
    target.confinement.endConstruction()
    other.sync { cost.newSiteNanoseconds = newSiteMedian(target, ReportSamples()) }
    ConfinementSystem.flushReports()
    let repeating: BuiltInViolationHandler = .policy(ConfinementPolicy(default: .warnOnce))
    let repeated = withConfinementViolationHandler(repeating) { ReportTarget(owner: owner) }
    repeated.confinement.endConstruction()
    let repeatSamples = ReportSamples()
    other.sync {
        for _ in 0...reports {
            repeatSamples.start()
            consume(readOffOwner(repeated))
            repeatSamples.stop()
        }
    }
    let repeats = repeatSamples.durations.dropFirst().sorted()
    cost.repeats = repeats.count
    cost.repeatNanoseconds = repeats.isEmpty ? 0 : repeats[repeats.count / 2]
    ConfinementSystem.flushReports()
    return cost
}

/// Start and stop times, all on one queue.
private final class ReportSamples: @unchecked Sendable {
    // @unchecked: touched only by the one queue that makes the violations and runs the handler.
    private var started: UInt64 = 0
    private(set) var durations: [Double] = []

    func start() { started = DispatchTime.now().uptimeNanoseconds }
    func stop() { durations.append(Double(DispatchTime.now().uptimeNanoseconds - started)) }
}

import Schedulable
import Testing

@testable import SchedulableDemo

@Suite struct DemoOptionsTests {
    @Test func defaultsAreTheSeedsScenario() throws {
        let options = try DemoOptions.parse([])
        #expect(options.photos == 1_000)
        #expect(options.costPerPhoto == .microseconds(2_600))
    }

    @Test func flagsSetPhotosAndCost() throws {
        let options = try DemoOptions.parse(["--photos", "20", "--cost-ms", "0.5"])
        #expect(options.photos == 20)
        #expect(options.costPerPhoto == .microseconds(500))
    }

    @Test func badInputNamesTheArgument() {
        #expect(throws: DemoOptions.UsageError.self) { try DemoOptions.parse(["--photos", "many"]) }
        #expect(throws: DemoOptions.UsageError.self) { try DemoOptions.parse(["--cost-ms", "-1"]) }
        #expect(throws: DemoOptions.UsageError(description: "unknown argument '--fast'; see --help")) {
            try DemoOptions.parse(["--fast"])
        }
    }
}

@Suite struct FrameStatsTests {
    @Test func steadyFramesAreSmooth() {
        let stats = FrameStats(gaps: Array(repeating: .milliseconds(17), count: 100))
        #expect(stats.isSmooth)
        #expect(stats.worstStall < .milliseconds(1))
    }

    @Test func oneLongFrameIsAFreeze() {
        let gaps = Array(repeating: Duration.milliseconds(16), count: 99) + [.milliseconds(2_600)]
        let stats = FrameStats(gaps: gaps)
        #expect(!stats.isSmooth)
        #expect(stats.worstStall > .milliseconds(2_583) && stats.worstStall < .milliseconds(2_584))
        #expect(stats.p99Stall == .zero)  // 99 of 100 frames were on time
    }

    @Test func millisecondsAreFormattedWithFixedDecimals() {
        #expect(Duration.milliseconds(16.666667).milliseconds(1) == "16.7")
        #expect(Duration.seconds(2.6).seconds(2) == "2.60")
        #expect(Duration.zero.milliseconds(1) == "0.0")
    }
}

/// The members named by the violations a handler received.
final class ReportedMembers: Sendable {
    private let members = LockedValue<[String]>([])

    func append(_ member: String) { members.withLock { $0.append(member) } }

    var all: [String] { members.withLock { $0 } }
}

@Suite struct DemoConfinementTests {
    /// The demo's service is really protected: a read off its scheduler is reported, with its member.
    @Test(.enabled(if: ConfinementSystem.debugChecksCompiledIn, "the debug tier is compiled out"))
    func uploadQueueReportsAccessOffItsOwner() {
        let reported = ReportedMembers()
        let uploads = SerialQueueScheduler(label: "demo-tests.uploads")
        let handler = CustomViolationHandler { @Sendable violation in reported.append(violation.member) }
        let queue = withConfinementViolationHandler(handler) {
            UploadQueue(owner: uploads, costPerPhoto: .zero)
        }
        nonisolated(unsafe) let shared = queue
        uploads.sync { shared.add(Photo(number: 1)) }       // the owner's first use ends construction
        #expect(reported.all.isEmpty)

        _ = queue.pendingCount()                             // this test's thread is not the owner
        // The method guard reports, and so does the property it reads (log-style handlers continue).
        #expect(reported.all == ["pendingCount()", "pending"])
    }
}

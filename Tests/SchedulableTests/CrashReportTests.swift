import Dispatch
import Schedulable
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A report made just before the program dies is on standard error (and in the JSON Lines file),
/// whatever ends the process. Each case runs `schedulable-main-probe crash <kind>`: a program with no
/// test framework, so its reports are written by the reporting thread as an app's are, which makes a
/// wrong-thread write under `SCHEDULABLE_CONFINEMENT=warn` and then dies at once.
///
/// Whether a report still waiting is lost depends on timing (the probe crashes within microseconds of
/// handing it over, and the report's first symbolication takes milliseconds), so each kind runs many
/// times and every run must carry the report. The "slow" runs make the loss certain without the crash
/// handler (each entry is written 20 ms late): they fail with `SCHEDULABLE_DISABLE_TRAP_REPORT` set.
@Suite("A report made before a crash is never lost", .enabled(if: ConfinementSystem.debugChecksCompiledIn))
struct CrashReportTests {
    /// How the Swift runtime's traps (force unwrap, `fatalError`, bounds, `precondition`) end a process.
    private static let swiftTrapSignal: Int32 = {
        #if arch(x86_64) || arch(i386)
        return SIGILL
        #else
        return SIGTRAP
        #endif
    }()

    /// Each way the probe can end, and how the process must end.
    private static let kinds: [(name: String, signal: Int32?, exitStatus: Int32?)] = [
        ("fatal-error", swiftTrapSignal, nil), ("array-bounds", swiftTrapSignal, nil),
        ("precondition", swiftTrapSignal, nil), ("abort", SIGABRT, nil), ("segv", SIGSEGV, nil),
        ("bus", SIGBUS, nil), ("ill", SIGILL, nil), ("trap", SIGTRAP, nil), ("exit-thread", nil, 3),
    ]

    /// How a process that dies of `signal` ends here: ThreadSanitizer handles SIGSEGV and SIGBUS itself
    /// (after the library's handler has run) and exits with status 66.
    private static func end(of signal: Int32?, exitStatus: Int32?) -> (signal: Int32?, exitStatus: Int32?) {
        guard underThreadSanitizer, signal == SIGSEGV || signal == SIGBUS else { return (signal, exitStatus) }
        return (nil, 66)
    }

    /// Repetitions per kind; fewer under ThreadSanitizer, whose instrumented probe is many times slower.
    private static let runs = underThreadSanitizer ? 3 : 10

    /// The issue's own example: a warning, then the app's force unwrap; 200 runs.
    @Test func aWarningThenAForceUnwrapKeepsTheReport() throws {
        let outcomes = try runMainProbe(
            times: underThreadSanitizer ? 10 : 200, ["crash", "force-unwrap"], environment: ["SCHEDULABLE_CONFINEMENT=warn"]
        )
        for (run, outcome) in outcomes.enumerated() {
            #expect(outcome.signal == Self.swiftTrapSignal, "run \(run): \(outcome.standardError)")
            try expectReport(in: outcome, run: run)
        }
    }

    /// Every other way a process dies: a runtime trap, `abort()`, a fault, a breakpoint, a signal sent
    /// to itself, `exit()` on another thread.
    @Test(arguments: kinds.map(\.name))
    func aWarningThenEachKindOfEndKeepsTheReport(kind: String) throws {
        let kindEntry = try #require(Self.kinds.first { $0.name == kind })
        let expected = Self.end(of: kindEntry.signal, exitStatus: kindEntry.exitStatus)
        for run in 0..<Self.runs {
            let outcome = try runMainProbe(["crash", kind], environment: ["SCHEDULABLE_CONFINEMENT=warn"])
            #expect(outcome.signal == expected.signal, "\(kind) run \(run): \(outcome.standardError)")
            #expect(outcome.exitStatus == expected.exitStatus, "\(kind) run \(run)")
            try expectReport(in: outcome, run: run)
        }
    }

    /// The same with every entry written 20 ms late: without the crash handler the report is lost
    /// every time (checked by hand with `SCHEDULABLE_DISABLE_TRAP_REPORT=1`), with it it is written.
    @Test(arguments: ["force-unwrap"] + kinds.map(\.name))
    func aSlowOutputIsWaitedFor(kind: String) throws {
        let outcome = try runMainProbe(["crash", kind, "slow"])
        try expectReport(in: outcome, run: 0, afterItsHeadline: false)
    }

    /// The library's own configuration check (an empty scheduler label) stops a debug build of the
    /// library; the report made before it is written first. A release build only warns and goes on.
    @Test func aConfigurationTrapKeepsTheReport() throws {
        for run in 0..<Self.runs {
            let outcome = try runMainProbe(["crash", "configuration"], environment: ["SCHEDULABLE_CONFINEMENT=warn"])
            #expect(outcome.signal == Self.swiftTrapSignal || outcome.exitStatus == 0, "run \(run)")
            #expect(outcome.standardError.contains("the label is empty"))
            try expectReport(in: outcome, run: run)
        }
    }

    /// The Swift runtime's backtracer, installed before the library's handler, still reports the crash:
    /// the handler gives the signal back to it. Not under ThreadSanitizer: the backtracer does not finish
    /// with an instrumented process (seen in CI: `swift-backtrace` outlived the crashed probe for minutes,
    /// holding its standard error open), which says nothing about the handler.
    @Test(.disabled(if: underThreadSanitizer, "swift-backtrace does not finish on an instrumented process"))
    func theBacktracerStillRunsAfterTheReport() throws {
        let outcome = try runMainProbe(
            ["crash", "force-unwrap"], environment: ["SCHEDULABLE_CONFINEMENT=warn"], backtracer: true
        )
        try expectReport(in: outcome, run: 0)
        // The backtracer names the crashed thread: `Thread 0 "name" crashed:`.
        #expect(outcome.standardError.contains(" crashed:\n"), "\(outcome.standardError)")
        #expect(outcome.signal == Self.swiftTrapSignal)
    }

    /// With a JSON Lines file configured, the record is in the file, whatever ends the process.
    @Test(arguments: ["force-unwrap", "abort", "segv", "exit-thread"])
    func theJSONLinesRecordIsInTheFile(kind: String) throws {
        for run in 0..<Self.runs {
            let path = "/tmp/schedulable-crash-\(getpid())-\(kind)-\(run).jsonl"
            defer { unlink(path) }
            let outcome = try runMainProbe(
                ["crash", kind], environment: ["SCHEDULABLE_CONFINEMENT=warn", "SCHEDULABLE_CONFINEMENT_JSONL=\(path)"]
            )
            let line = try #require(accessLine(outcome.standardError))
            let file = try #require(readSmallFile(path), "\(kind) run \(run): no file; stderr: \(outcome.standardError)")
            #expect(file.contains(#""qualifiedMember":"Settings.retries""#), "\(kind) run \(run): \(file)")
            #expect(file.contains(#""function":"touchFromElsewhere(_:)""#) && file.contains(#""line":\#(line),"#))
        }
    }

    /// An output that never returns cannot keep a crashed process alive: it ends after the bounded
    /// wait, and says how many reports it could not write.
    @Test func aBlockedOutputDoesNotHangTheCrash() throws {
        var started = timespec()
        clock_gettime(CLOCK_MONOTONIC, &started)
        let outcome = try runMainProbe(["crash", "segv", "blocked"])
        var ended = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ended)
        let expected = Self.end(of: SIGSEGV, exitStatus: nil)
        #expect(outcome.signal == expected.signal && outcome.exitStatus == expected.exitStatus)
        #expect(ended.tv_sec - started.tv_sec < 20)
        #expect(outcome.standardError.contains(
            "Schedulable: the process crashed with 1 report(s) not yet written (the reporting thread made no progress)\n"
        ))
    }

    /// The whole report (its first line, member and access site: the probe's wrong-thread write) is in
    /// `outcome`: after its headline (KilledProcessHeadlineTests), which it names, where the handler is
    /// the environment's, which prints to standard error; as its own first line where the probe's
    /// handler has an output of its own ("slow"), which gets no headline.
    private func expectReport(in outcome: ProgramOutcome, run: Int, afterItsHeadline: Bool = true) throws {
        let stderr = outcome.standardError
        let line = try #require(accessLine(stderr), "run \(run): \(stderr)")
        if afterItsHeadline {
            // After its headline, naming it; saying again what it is about when the library wrote
            // something else between them (a release build's configuration warning). What others write
            // between them (the runtime's `Fatal error:` line) the library cannot know of.
            #expect(stderr.contains("\n" + KilledProcessHeadlineTests.headline), "run \(run): \(stderr)")
            #expect(
                stderr.contains("\nSchedulable: report of [1] above\n")
                    || stderr.contains("\nSchedulable: report of [1] above: Settings.retries used outside its owner\n"),
                "run \(run): \(stderr)"
            )
        } else {
            #expect(stderr.contains("Schedulable: Settings.retries used outside its owner\n"), "run \(run): \(stderr)")
        }
        #expect(stderr.contains("\n  member:          retries\n"), "run \(run)")
        #expect(
            stderr.contains("\n  access site:     schedulable_main_probe/Crash.swift:\(line) in touchFromElsewhere(_:)\n"),
            "run \(run): \(stderr)"
        )
    }

    /// The line of the probe's wrong-thread write, which it prints first.
    private func accessLine(_ stderr: String) -> Int? {
        guard let start = stderr.range(of: "access line: ") else { return nil }
        return Int(stderr[start.upperBound...].prefix { $0.isNumber })
    }
}

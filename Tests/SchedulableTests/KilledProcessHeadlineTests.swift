import Schedulable
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Nothing queued is ever the only copy: a process killed right after a warning still has the warning's
/// headline on standard error (and its record in the JSON Lines file), written by the violating thread
/// itself. Each case runs `schedulable-main-probe crash sigterm|sigint|sigkill`: a program with no test
/// framework, whose report waits for the reporting thread, as an app's does, and which sends itself the
/// signal as soon as the violating write returns. Nothing of the library's runs after that signal (the
/// library takes neither `SIGTERM` nor `SIGINT`, which are the app's), so whether the full report made it
/// depends on timing; the headline must be there every time, 200 runs each.
@Suite("A killed process keeps each warning's headline", .enabled(if: ConfinementSystem.debugChecksCompiledIn))
struct KilledProcessHeadlineTests {
    private static let runs = underThreadSanitizer ? 10 : 200

    /// The headline of the probe's wrong-thread write, as the violating thread knows it.
    static let headline = "Schedulable: [1] wrong context: Settings.retries used outside its owner; "
        + "expected owner: queue \"probe.settings\"; actual context: main thread; access site not yet symbolicated\n"

    @Test(arguments: [("sigterm", SIGTERM), ("sigint", SIGINT), ("sigkill", SIGKILL)])
    func aSignalRightAfterAWarningLeavesItsHeadline(kind: String, signal: Int32) throws {
        let outcomes = try runMainProbe(
            times: Self.runs, ["crash", kind], environment: ["SCHEDULABLE_CONFINEMENT=warn"]
        )
        for (run, outcome) in outcomes.enumerated() {
            #expect(outcome.signal == signal, "\(kind) run \(run): \(outcome.standardError)")
            #expect(outcome.standardError.hasPrefix("access line: "), "\(kind) run \(run): \(outcome.standardError)")
            #expect(outcome.standardError.contains("\n" + Self.headline), "\(kind) run \(run): \(outcome.standardError)")
            // A report that was written names its headline; it never comes without one.
            if outcome.standardError.contains("\n  member:") {
                #expect(outcome.standardError.contains(Self.headline + "Schedulable: report of [1] above"))
            }
        }
    }

    /// With the JSON Lines sink set, the headline's record is in the file with the same fields, whatever
    /// became of the full record.
    @Test(arguments: [("sigterm", SIGTERM), ("sigkill", SIGKILL)])
    func theHeadlinesRecordIsInTheJSONLinesFile(kind: String, signal: Int32) throws {
        for run in 0..<(underThreadSanitizer ? 3 : 20) {
            let path = "/tmp/schedulable-headline-\(getpid())-\(kind)-\(run).jsonl"
            defer { unlink(path) }
            let outcome = try runMainProbe(
                ["crash", kind], environment: ["SCHEDULABLE_CONFINEMENT=warn", "SCHEDULABLE_CONFINEMENT_JSONL=\(path)"]
            )
            #expect(outcome.signal == signal, "\(kind) run \(run): \(outcome.standardError)")
            let file = try #require(readSmallFile(path), "\(kind) run \(run): no file; stderr: \(outcome.standardError)")
            let record = try #require(
                file.split(separator: "\n").first { $0.hasPrefix(#"{"schema":"schedulable.violation.headline""#) },
                "\(kind) run \(run): \(file)"
            )
            #expect(record == #"{"schema":"schedulable.violation.headline","version":1,"headline":1,"count":1,"#
                + #""level":"warn","kind":"wrongContext","tier":"assert","typeName":"Settings","#
                + #""objectIdentity":"\#(try objectIdentity(in: file))","member":"retries","#
                + #""qualifiedMember":"Settings.retries","expectedOwner":"queue \"probe.settings\"","#
                + #""actualContext":"main thread"}"#)
        }
    }

    /// With headlines turned off (`SCHEDULABLE_HEADLINES=off`, what the cost rows compare against), a
    /// full report is written as before: its first line says what happened, and no line refers to a
    /// headline.
    @Test func withHeadlinesOffTheReportIsAsBefore() throws {
        let outcome = try runMainProbe(
            ["crash", "abort"], environment: ["SCHEDULABLE_CONFINEMENT=warn", "SCHEDULABLE_HEADLINES=off"]
        )
        #expect(outcome.signal == SIGABRT)
        #expect(outcome.standardError.contains("Schedulable: Settings.retries used outside its owner\n  object:"))
        #expect(!outcome.standardError.contains("[1]"), "\(outcome.standardError)")
    }

    /// The object's address as the file's records give it (it differs from run to run).
    private func objectIdentity(in file: String) throws -> String {
        let start = try #require(file.range(of: #""objectIdentity":""#))
        return String(file[start.upperBound...].prefix { $0 != "\"" })
    }
}

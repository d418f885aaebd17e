// The probe's "crash <kind> [slow|blocked]" mode: a report made with the process's own settings
// (SCHEDULABLE_CONFINEMENT=warn, and SCHEDULABLE_CONFINEMENT_JSONL when the test sets it), so it is
// written by the reporting thread as in an app, and then the program ends at once in one of the ways a
// program dies (CrashReportTests checks the report is on standard error, and in the file, every time).
// "sigterm", "sigint" and "sigkill" send the process that signal right after the warning: nothing of the
// library's runs then (the first two are the app's to handle; the library takes neither), so what is on
// standard error is what the violating thread wrote itself, its headline (KilledProcessHeadlineTests).
// "slow" writes each entry 20 ms late, so that a report not waited for would certainly be lost; "blocked"
// never returns from the output, so the process must end without it, and say so.

import CSchedulableTestSupport
import Dispatch
import Schedulable

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A service whose settings belong to its queue.
final class Settings: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    @Confined var retries = 0

    init(owner: some SerialScheduler) {
        confinement = Confinement(owner: owner)
    }
}

private let touchLine = #line + 3
/// A wrong-thread write: the report is due here.
@inline(never) func touchFromElsewhere(_ settings: Settings) {
    settings.retries += 1
}

/// An address no page is mapped at, computed so the optimizer cannot see it.
@inline(never) func unmappedAddress() -> UInt {
    UInt(CommandLine.arguments.count) * 8
}

func runCrash(_ kind: String, _ mode: String?) -> Never {
    switch mode {
    case "slow":
        ConfinementSystem.bootstrap(PolicyViolationHandler(
            ConfinementPolicy(default: .warn),
            output: { entry in
                usleep(20_000)
                StandardError.write(entry)
            },
            raisesRuntimeIssues: false, writesOnReportingThread: true
        ))
    case "blocked":
        let never = DispatchSemaphore(value: 0)
        ConfinementSystem.bootstrap(PolicyViolationHandler(
            ConfinementPolicy(default: .warn), output: { _ in never.wait() },
            raisesRuntimeIssues: false, writesOnReportingThread: true
        ))
    default:
        break   // the environment's policy, as an app has it
    }
    StandardError.write("access line: \(touchLine)\n")
    let owner = SerialQueueScheduler(label: "probe.settings")
    let settings = Settings(owner: owner)
    owner.sync { settings.retries = 3 }
    DispatchQueue.global().sync { touchFromElsewhere(settings) }
    let opaque = CommandLine.arguments.count   // 3 or 4: keeps every crash below out of the optimizer's reach
    switch kind {
    case "force-unwrap":
        let config = [String: Int](uniqueKeysWithValues: CommandLine.arguments.dropFirst(8).map { ($0, 1) })
        print("loaded", config["retries"]!)
    case "fatal-error":
        fatalError("the app gives up")
    case "array-bounds":
        let values = Array(CommandLine.arguments.dropFirst(8))
        print(values[opaque])
    case "precondition":
        precondition(opaque > 8, "the app's own precondition")
    case "configuration":
        // The library's own configuration check: a debug build stops here.
        let unnamed = SerialQueueScheduler(label: "")
        unnamed.sync {}
    case "abort":
        abort()
    case "segv":
        UnsafeMutablePointer<UInt>(bitPattern: unmappedAddress())!.pointee = 1
    case "bus":
        // Sent, not faulted: a real bus error needs a file mapping past its file's end, and the
        // toolchain's `ImageMap.capture()`, which the reporting thread calls to symbolicate, reads
        // every mapping and faults on that one itself (a limit the Reporting article states).
        // SIGSEGV below is the kernel's own fault; this one is the signal sent by kill or raise.
        raise(SIGBUS)
    case "ill":
        raise(SIGILL)
    case "trap":
        csched_test_breakpoint()
    case "sigterm":
        kill(getpid(), SIGTERM)
        while true { pause() }   // the signal may go to another thread: never reach exit(0)
    case "sigint":
        kill(getpid(), SIGINT)
        while true { pause() }
    case "sigkill":
        kill(getpid(), SIGKILL)
        while true { pause() }
    case "exit-thread":
        let exiting = ThreadScheduler(label: "probe.exit")
        exiting.schedule { exit(3) }
        while true { sleep(1) }
    default:
        StandardError.write("unknown crash kind \(kind)\n")
        exit(2)
    }
    exit(0)   // no crash (a release build's configuration check only warns)
}

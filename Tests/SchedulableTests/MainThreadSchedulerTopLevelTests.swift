import Dispatch
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a launched program ended (MainThreadSchedulerTopLevelTests and MatrixTests launch the probe).
struct ProgramOutcome {
    var exitStatus: Int32?
    var signal: Int32?
    var standardError: String
}

/// Whether this process runs under ThreadSanitizer (its runtime is linked into the executable).
let underThreadSanitizer: Bool = {
    guard let process = dlopen(nil, RTLD_NOW) else { return false }
    return dlsym(process, "__tsan_init") != nil
}()

/// Runs the `schedulable-main-probe` program built next to the test bundle, without Foundation;
/// `environment` adds `NAME=value` entries to its (otherwise minimal) environment. The Swift runtime's
/// backtracer is off in it unless `backtracer` is true (its crash report takes time, and says nothing
/// these tests read).
///
/// The child starts with no signal blocked and `SIGTERM` and `SIGINT` at their default actions: a
/// spawned process inherits its parent's signal mask, and the parent here is often a dispatch worker,
/// whose mask blocks most signals (a probe that sends itself `SIGTERM` would then never end). A probe
/// that has not ended after ``probeTimeLimit`` seconds is killed, and the run fails with what it printed.
func runMainProbe(
    _ arguments: [String], environment extra: [String] = [], backtracer: Bool = false
) throws -> ProgramOutcome {
    // SwiftPM and Xcode put every product of the package in one folder: the test bundle's.
    #if os(Linux)
    let executable = try #require(readSymbolicLink("/proc/self/exe"))
    let folder = executable[..<executable.lastIndex(of: "/")!]
    #else
    // No procfs: the image of this code is the bundle's binary, `<products>/X.xctest/Contents/MacOS/X`.
    var info = Dl_info()
    try #require(dladdr(#dsohandle, &info) != 0 && info.dli_fname != nil)
    let components = String(cString: info.dli_fname).split(separator: "/", omittingEmptySubsequences: false)
    let bundle = try #require(components.firstIndex { $0.hasSuffix(".xctest") })
    let folder = components[..<bundle].joined(separator: "/")
    #endif
    let path = String(folder) + "/schedulable-main-probe"
    try #require(access(path, X_OK) == 0, "build the package first: \(path) is missing")

    var pipeEnds: [Int32] = [0, 0]
    try #require(pipe(&pipeEnds) == 0)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    let environment = (backtracer ? [] : ["SWIFT_BACKTRACE=enable=no"]) + extra
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGTERM)
    sigaddset(&defaults, SIGINT)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid = pid_t()
    let result = withCStrings([path] + arguments) { argv in
        withCStrings(environment) { envp in
            posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        }
    }
    close(pipeEnds[1])
    try #require(result == 0, "posix_spawn failed: \(result)")
    let watchdog = ProbeWatchdog(pid: pid)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
        if count <= 0 { break }
        bytes += buffer[..<count]
    }
    close(pipeEnds[0])
    let killed = watchdog.childEnded()
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    try #require(
        !killed, "the probe \(arguments) did not end within \(probeTimeLimit) s: \(String(decoding: bytes, as: UTF8.self))"
    )
    let terminatingSignal = status & 0x7f
    return ProgramOutcome(
        exitStatus: terminatingSignal == 0 ? (status >> 8) & 0xff : nil,
        signal: terminatingSignal == 0 ? nil : terminatingSignal,
        standardError: String(decoding: bytes, as: UTF8.self)
    )
}

/// How long a probe may run before ``runMainProbe(_:environment:backtracer:)`` kills it, in seconds.
let probeTimeLimit = 120

/// Kills a probe that outlives ``probeTimeLimit``, never a process that has been reaped (whose id may
/// belong to another process by then).
private final class ProbeWatchdog: @unchecked Sendable {
    // @unchecked: `ended` and `killed` are read and written only on `queue`.
    private let queue = DispatchQueue(label: "tests.probe.watchdog")
    private let pid: pid_t
    private var ended = false
    private var killed = false

    init(pid: pid_t) {
        self.pid = pid
        queue.asyncAfter(deadline: .now() + .seconds(probeTimeLimit)) { [self] in
            guard !ended else { return }
            killed = true
            kill(pid, SIGKILL)
        }
    }

    /// Waits until the child has ended, without reaping it, and returns whether the watchdog killed it.
    func childEnded() -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        return queue.sync {
            ended = true
            return killed
        }
    }
}

/// Runs the probe `runs` times with the same arguments, two at a time (one per core, so that many runs
/// in a row are not the suite's longest chain), and returns the outcomes in run order. Each run writes
/// only its own slot; the caller checks them afterwards, on its own thread.
func runMainProbe(
    times runs: Int, _ arguments: [String], environment: [String] = []
) throws -> [ProgramOutcome] {
    let outcomes = UnsafeMutableBufferPointer<Result<ProgramOutcome, any Error>?>.allocate(capacity: runs)
    outcomes.initialize(repeating: nil)
    defer { outcomes.deallocate() }
    nonisolated(unsafe) let slots = outcomes
    DispatchQueue.concurrentPerform(iterations: runs) { run in
        slots[run] = Result { try runMainProbe(arguments, environment: environment) }
    }
    return try (0..<runs).map { try #require(outcomes[$0]).get() }
}

private func readSymbolicLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}

@Suite("Main scheduler in top-level code")
struct MainThreadSchedulerTopLevelTests {
    @Test func topLevelCodeAndDispatchMainWorkPassMainOwnedChecks() throws {
        let outcome = try runMainProbe([])
        #expect(outcome.exitStatus == 0, "stderr: \(outcome.standardError)")
        // Under --sanitize=thread the probe is instrumented too; a report would only show here.
        #expect(!outcome.standardError.contains("ThreadSanitizer"))
    }

    @Test func aMainOwnedObjectUsedFromAThreadSchedulerStopsTheProgramWithTheReport() throws {
        let outcome = try runMainProbe(["thread-scheduler"])
        #expect(outcome.exitStatus != 0)
        #expect(outcome.standardError.contains("expected owner:  main thread"))
        #expect(outcome.standardError.contains("actual context:  thread scheduler \"probe.worker\""))
    }

    /// `SchedulableObject(_:)` with no scheduler belongs to the main thread: its always-on check stops
    /// a thread scheduler's access with a report that names the main thread and the bind site.
    @Test func anObjectOwnedByTheMainThreadByDefaultStopsTheProgramWithTheReport() throws {
        let outcome = try runMainProbe(["default-owner-from-thread-scheduler"])
        #expect(outcome.exitStatus != 0)
        #expect(outcome.standardError.contains("SchedulableObject<Tally>.object used outside its owner"))
        #expect(outcome.standardError.contains("expected owner:  main thread"))
        #expect(outcome.standardError.contains("actual context:  thread scheduler \"probe.worker\""))
        #expect(outcome.standardError.contains("owner bound at:  schedulable_main_probe/main.swift:"))
    }
}

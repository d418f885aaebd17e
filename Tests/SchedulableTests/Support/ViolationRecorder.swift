import CSchedulableContext
import Dispatch
import Foundation
import Schedulable
import Testing

/// Records violations in memory so reporting paths are tested in-process.
final class ViolationRecorder: ConfinementViolationHandler, @unchecked Sendable {
    // NSLock, not Mutex: ThreadSanitizer on Linux cannot see Mutex's futex and reports false races.
    private let lock = NSLock()
    private var storage: [ConfinementViolation] = []

    func handle(_ violation: ConfinementViolation) {
        lock.withLock { storage.append(violation) }
    }

    var violations: [ConfinementViolation] { lock.withLock { storage } }
    var members: [String] { violations.map(\.member) }
    var count: Int { violations.count }
}

/// How many debug-tier violations to expect: none when this build compiled the debug tier out.
func expectedDebugTier(_ count: Int) -> Int {
    ConfinementSystem.debugChecksCompiledIn ? count : 0
}

/// A protected service used across the tests. `@unchecked Sendable` because the tests move it across
/// threads on purpose; the library's checks are what the tests observe.
final class Counter: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    @Confined(name: "count") var count = 0
    @Confined var items: [Int] = []
    @Confined(name: "flag") var flag = false

    init(owner: some SerialScheduler) {
        confinement = Confinement(owner: owner)
    }

    init(confinement: Confinement) {
        self.confinement = confinement
    }

    /// A method guard and nothing else: one check per call.
    func ping() {
        assertIsolated()
    }

    func increment() {
        assertIsolated()
        count += 1
    }

    func incrementAlways() {
        preconditionIsolated()
        count += 1
    }

    func reset() {
        assertIsolated()
        count = 0
    }
}

/// Creates a counter for `owner` with `recorder` as its handler, published: its construction window
/// (which lets the creating thread use it) is ended explicitly, so from here on only the owner passes.
func settledCounter(owner: SerialQueueScheduler, recorder: ViolationRecorder, transferable: Bool = false) -> Counter {
    let counter = withConfinementViolationHandler(recorder) {
        transferable ? Counter(transferableOwner: owner) : Counter(owner: owner)
    }
    counter.confinement.endConstruction()
    return counter
}

/// Runs `body` on a new plain thread (not a dispatch worker) and waits for it.
func onPlainThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        // Foundation on Linux does not pass `Thread.name` to the OS thread; name it here so reports
        // can be matched. (Linux thread names are at most 15 bytes.)
        csched_set_thread_name("plain-thread")
        body()
        done.signal()
    }
    thread.start()
    done.wait()
}

/// A thread-safe list for tests.
final class LockedList<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []
    func append(_ element: Element) { lock.withLock { storage.append(element) } }
    var elements: [Element] { lock.withLock { storage } }
}

/// For exit-test bodies: a counter owned by a fresh queue, used once on its owner (which ends the
/// construction window), then used `times` more from another queue — each of those a violation.
func useFromAnotherQueue(ownerLabel: String, times: Int = 1, _ use: @escaping @Sendable (Counter) -> Void) {
    let owner = SerialQueueScheduler(label: ownerLabel)
    let counter = Counter(owner: owner)
    owner.sync { use(counter) }
    let intruder = DispatchQueue(label: ownerLabel + ".intruder")
    for _ in 0..<times { intruder.sync { use(counter) } }
}

/// The standard error an exit test observed, as text.
func standardErrorText(_ result: ExitTest.Result) -> String {
    String(decoding: result.standardErrorContent, as: UTF8.self)
}

/// What the runtime printed after "Fatal error: " in an exit test's standard error (a trap's own
/// message), whatever comes before it (file and line in debug builds).
func fatalErrorMessage(_ result: ExitTest.Result) -> String? {
    standardErrorText(result).split(separator: "\n").first { $0.contains("Fatal error: ") }.map {
        String($0[$0.range(of: "Fatal error: ")!.upperBound...])
    }
}

extension Counter {
    /// A counter that may change hands (``Confinement/transferable(owner:file:line:)``).
    convenience init(transferableOwner owner: some SerialScheduler) {
        self.init(confinement: .transferable(owner: owner))
    }
}

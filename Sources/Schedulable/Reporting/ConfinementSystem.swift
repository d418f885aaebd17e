import CSchedulableContext

/// The process-wide configuration: which handler receives violations.
///
/// Configure it once, early, with ``bootstrap(_:file:line:)`` (a handler) or
/// ``bootstrap(policy:file:line:)`` (levels per type and member); a second call traps. Without a
/// bootstrap, debug builds trap on a violation and release builds (where only the always-on tier and the
/// `ReleaseChecks` trait produce violations) warn once per call site. The `SCHEDULABLE_CONFINEMENT`
/// environment variable — a ``ConfinementPolicy`` in its compact syntax, such as
/// `warn-once,UploadQueue=trap` — is read the first time a violation is handled and overrides both, so a
/// deployed beta can change its levels without a rebuild.
///
/// Per-scope handlers (``withConfinementViolationHandler(_:operation:)``) and the handler an object
/// captured when it was created take precedence over the process-wide one; test helpers use them.
/// Inside a test (a binary that links `SchedulableTesting`), a violation nothing else claims fails the
/// test that caused it; a configured process-wide handler is explicit and wins over that, except at
/// its ``ConfinementLevel/failTest`` level.
public enum ConfinementSystem {
    /// The environment variable that overrides the handler with a policy: `SCHEDULABLE_CONFINEMENT`.
    package static let environmentVariable = "SCHEDULABLE_CONFINEMENT"


    /// The environment variable that names a file every delivered violation is also appended to, as
    /// JSON Lines: `SCHEDULABLE_CONFINEMENT_JSONL`.
    package static let jsonLinesEnvironmentVariable = "SCHEDULABLE_CONFINEMENT_JSONL"


    /// The environment variable that sets ``reportStackDepth`` at start-up: `SCHEDULABLE_CONFINEMENT_STACK`
    /// (a number of frames; `0` turns the stack off).
    package static let stackDepthEnvironmentVariable = "SCHEDULABLE_CONFINEMENT_STACK"


    /// How many frames of the violating thread a report shows, from its access site on, in builds with the
    /// debug tier (8 unless `SCHEDULABLE_CONFINEMENT_STACK` says otherwise; 0 shows none). Every report names
    /// its access site whatever this is. Read when a violation is made, so a change applies to the next.
    public static var reportStackDepth: Int {
        get { stackDepth.withLock { $0 } }
        set { stackDepth.withLock { $0 = max(0, newValue) } }
    }

    private static let stackDepth = LockedValue<Int>(
        (EnvironmentSetting.stackDepth.read()?.value).flatMap { Int($0) }.map { max(0, $0) } ?? 8
    )

    /// Whether the debug-tier checks (`@Confined`, `assertIsolated()`) were compiled into
    /// this build of the library: debug builds, or release builds with the `ReleaseChecks` trait (or
    /// `SCHEDULABLE_RELEASE_CHECKS=1` when the manifest was evaluated).
    public static var debugChecksCompiledIn: Bool {
        #if SCHEDULABLE_CHECKS
        return true
        #else
        return false
        #endif
    }

    private struct Bootstrap {
        var handler: any ConfinementViolationHandler
        var location: CodeLocation
    }

    private static let bootstrapped = LockedValue<Bootstrap?>(nil)

    /// The policy of the environment variable, if it is set. Entries that cannot be parsed are reported
    /// (each one, with the syntax) and left out; the valid ones still apply.
    private static let environmentHandler: (any ConfinementViolationHandler)? = {
        guard let (value, name) = EnvironmentSetting.policy.read() else { return nil }
        do throws(ConfinementPolicy.ParseError) {
            return PolicyViolationHandler(try ConfinementPolicy(parsing: value, fallback: defaultLevel))
        } catch {
            StandardError.write(
                "Schedulable: \(name): \(error.description); applying the valid entries: "
                    + "\(error.validPart)\n"
            )
            return PolicyViolationHandler(error.validPart)
        }
    }()

    /// What happens to a violation when nothing was configured: ``ConfinementLevel/trap`` in debug
    /// builds, ``ConfinementLevel/warnOnce`` in release builds (where only the precondition tier, which
    /// traps anyway, and the `ReleaseChecks` trait produce violations — a beta build should warn, not
    /// crash).
    public static var defaultLevel: ConfinementLevel {
        #if SCHEDULABLE_DEBUG_BUILD
        return .trap
        #else
        return .warnOnce
        #endif
    }

    private static let defaultHandler: any ConfinementViolationHandler =
        PolicyViolationHandler(ConfinementPolicy(default: defaultLevel))

    /// Prints the violation summary of the process-wide handler (every call site that violated, with its
    /// exact count) to standard error, when that handler is a policy; it is also printed at exit when
    /// reports were held back during a storm.
    public static func printSummary() {
        (handler as? PolicyViolationHandler)?.printSummary()
    }

    /// Waits until every report the library's printing handlers were given so far is written.
    ///
    /// The printing handlers (`.policy(_:)`, `.log`, `.jsonLines(path:)`, the default) count and
    /// decide on the violating thread, then hand the report to the library's reporting thread, which
    /// symbolicates its stack and writes it, in order, so that a report does not stall the code that
    /// made it. A trap, a crash and an exit wait for them by themselves; call this where something reads
    /// what they wrote (the JSON Lines file, say) before the process ends. In a process where a test
    /// framework is loaded they write on the violating thread, so tests need not call it. The wait is
    /// bounded: once the reporting thread has made no progress for two seconds (written nothing, and on Linux used
    /// no CPU time: a first report's symbols in a large binary take longer, but the thread runs; a custom `output` closure
    /// that waits for a lock this thread holds, say), it returns and says on standard error how many
    /// reports are still waiting.
    public static func flushReports() {
        ReportWriter.flush()
    }

    /// Installs a policy as the process-wide handler: levels per type and member over a default.
    ///
    /// - Parameters:
    ///   - policy: Decides the level of every violation not claimed by a scoped or per-object handler.
    ///   - file: The call site, reported if bootstrap is called twice.
    ///   - line: The call site, reported if bootstrap is called twice.
    public static func bootstrap(policy: ConfinementPolicy, file: StaticString = #fileID, line: UInt = #line) {
        bootstrap(PolicyViolationHandler(policy), file: file, line: line)
    }

    /// Installs the process-wide handler.
    ///
    /// Call it once, before the first violation can happen.
    ///
    /// - Parameters:
    ///   - handler: Receives every violation not claimed by a scoped or per-object handler.
    ///   - file: The call site, reported if bootstrap is called twice.
    ///   - line: The call site, reported if bootstrap is called twice.
    public static func bootstrap(
        _ handler: some ConfinementViolationHandler, file: StaticString = #fileID, line: UInt = #line
    ) {
        let here = CodeLocation(file: file, line: line)
        let previous = bootstrapped.withLock { state -> CodeLocation? in
            if let state { return state.location }
            state = Bootstrap(handler: handler.unwrapped, location: here)
            return nil
        }
        if let previous {
            let message = "ConfinementSystem.bootstrap called twice: first at \(previous), again at \(here); "
                + "configure the handler once, at start-up (use withConfinementViolationHandler for a scope)"
            StandardError.write("Schedulable: \(message)\n")
            fatalError(message)
        }
    }

    /// The handler that receives violations with no scoped or per-object handler: the environment
    /// variable's, else the bootstrapped one, else the build's default.
    public static var handler: any ConfinementViolationHandler {
        if let environmentHandler { return environmentHandler }
        return bootstrapped.withLock { $0?.handler } ?? defaultHandler
    }

    /// The handler for the current scope: the one set with
    /// ``withConfinementViolationHandler(_:operation:)``, else — inside a test of a binary that links
    /// `SchedulableTesting` — the handler that fails the current test; `nil` elsewhere.
    ///
    /// Objects created here keep it, and so do delayed work and futures submitted here: their
    /// violations go to it from any thread (see "Reporting Violations" for the precedence).
    public static var scopedHandler: (any ConfinementViolationHandler)? {
        explicitScopedHandler ?? AutomaticTestReporting.current
    }

    /// The handler set with ``withConfinementViolationHandler(_:operation:)``, if any: what the code
    /// asked for, which wins over a test's automatic handler.
    @TaskLocal
    static var explicitScopedHandler: (any ConfinementViolationHandler)? = nil

    /// Whether ``scopedHandler`` can be anything but `nil`, for a record's initializer: the explicit
    /// scope's task-local is read only once a scope was ever installed with
    /// ``withConfinementViolationHandler(_:operation:)`` (a task-local read costs more than the rest of
    /// the initializer), a test's automatic handler only when a test framework bridge is installed.
    ///
    /// One inlined load of a C global that holds both facts (`csched_handler_sources`).
    @inline(__always)
    package static var mayHaveScopedHandler: Bool {
        csched_may_have_scoped_handler()
    }

    /// See ``mayHaveScopedHandler``.
    package static var scopedHandlerIfAny: (any ConfinementViolationHandler)? {
        if csched_scoped_handler_ever_installed(), let explicit = explicitScopedHandler { return explicit }
        return AutomaticTestReporting.current
    }

    /// Whether the process-wide handler was configured — by ``bootstrap(_:file:line:)`` or the
    /// `SCHEDULABLE_CONFINEMENT` variable — rather than left to the build's default. A configured handler
    /// is explicit, so it wins over a test's automatic one.
    package static var isExplicitlyConfigured: Bool {
        environmentHandler != nil || bootstrapped.withLock { $0 != nil }
    }
}

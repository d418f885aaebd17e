/// The process-wide configuration: which handler receives violations.
///
/// Configure it once, early, with ``bootstrap(_:file:line:)``; a second call traps. Without a
/// bootstrap, debug builds trap on a violation and release builds (where only the always-on tier and
/// the `ReleaseChecks` trait produce violations) log. The `SCHEDULE_PROTECTION` environment variable
/// (`trap`, `log` or `off`), read once the first time a violation is handled, overrides both, so a
/// deployed beta can be switched to logging without a rebuild.
///
/// Per-scope handlers (``withConfinementViolationHandler(_:operation:)``) and the handler an object
/// captured when it was created take precedence over the process-wide one; test helpers use them.
public enum ConfinementSystem {
    /// The values the `SCHEDULE_PROTECTION` environment variable accepts.
    public enum Mode: String, Sendable, CaseIterable {
        /// Print the report, then trap.
        case trap
        /// Print each distinct violation once, with repeat counts.
        case log
        /// Ignore debug-tier violations (precondition-tier ones still trap).
        case off
    }

    /// The environment variable that overrides the handler: `SCHEDULE_PROTECTION`.
    public static let environmentVariable = "SCHEDULE_PROTECTION"

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

    private static let bootstrapped = ScheduleLock<Bootstrap?>(nil)

    private static let environmentHandler: (any ConfinementViolationHandler)? = {
        guard let value = StandardError.environmentValue(environmentVariable) else { return nil }
        switch Mode(rawValue: value.lowercased()) {
        case .trap: return TrapViolationHandler()
        case .log: return LogViolationHandler()
        case .off: return IgnoreViolationHandler()
        case nil:
            StandardError.write(
                "Schedulable: \(environmentVariable)=\"\(value)\" is not one of "
                    + Mode.allCases.map(\.rawValue).joined(separator: ", ")
                    + "; ignoring it and using the configured handler\n"
            )
            return nil
        }
    }()

    /// What happens to a violation when nothing was configured: ``Mode/trap`` in debug builds,
    /// ``Mode/log`` in release builds (where only the precondition tier, which traps anyway, and the
    /// `ReleaseChecks` trait produce violations — a beta build should log, not crash).
    public static var defaultMode: Mode {
        #if SCHEDULABLE_DEBUG_BUILD
        return .trap
        #else
        return .log
        #endif
    }

    private static let defaultHandler: any ConfinementViolationHandler =
        defaultMode == .trap ? TrapViolationHandler() : LogViolationHandler()

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
            state = Bootstrap(handler: handler, location: here)
            return nil
        }
        if let previous {
            let message = "ConfinementSystem.bootstrap called twice: first at \(previous), again at \(here); "
                + "configure the handler once, at start-up (use withConfinementViolationHandler for a scope)"
            StandardError.write("Schedulable: \(message)\n")
            fatalError(message)
        }
    }

    /// Forgets the bootstrapped handler. For this package's own tests of `bootstrap`.
    package static func resetBootstrapForTesting() {
        bootstrapped.withLock { $0 = nil }
    }

    /// The handler that receives violations with no scoped or per-object handler: the environment
    /// variable's, else the bootstrapped one, else the build's default.
    public static var handler: any ConfinementViolationHandler {
        if let environmentHandler { return environmentHandler }
        return bootstrapped.withLock { $0?.handler } ?? defaultHandler
    }

    /// The handler for the current scope, if one was set with ``withConfinementViolationHandler(_:operation:)``.
    ///
    /// Objects created in the scope keep it.
    @TaskLocal
    public static var scopedHandler: (any ConfinementViolationHandler)? = nil
}

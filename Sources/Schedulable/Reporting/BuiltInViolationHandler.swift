/// The library's own handlers, one type, each spelt as a static member wherever a handler is taken:
/// `ConfinementSystem.bootstrap(.log)`, `withConfinementViolationHandler(.custom { … }) { … }`.
///
/// Public because the static members of ``ConfinementViolationHandler`` need a concrete type to return
/// (as swift-issue-reporting's reporters do); a handler of your own (the swift-log adapter's) conforms
/// to ``ConfinementViolationHandler`` instead.
public struct BuiltInViolationHandler: ConfinementViolationHandler {
    /// The handler this one is. The library stores it, not this wrapper (``ConfinementViolationHandler/unwrapped``),
    /// so that deciding a report's level and whether it traps looks at one type.
    package let base: any ConfinementViolationHandler

    package init(_ base: any ConfinementViolationHandler) { self.base = base }

    /// Hands `violation` to the built-in handler this one is.
    ///
    /// - Parameter violation: What happened.
    public func handle(_ violation: ConfinementViolation) { base.handle(violation) }

    /// A printing handler's summary so far (`.policy(_:)`, `.log`): every site with its exact count,
    /// what the handler prints at exit when it held reports back; `nil` for the other handlers.
    public var summary: String? {
        (base as? PolicyViolationHandler)?.summary ?? (base as? LogViolationHandler)?.summary
    }
}

extension ConfinementViolationHandler where Self == BuiltInViolationHandler {
    /// Print the report, then trap (the default in debug builds); a note is printed and nothing more.
    public static var trap: Self { Self(TrapViolationHandler()) }

    /// Print each distinct violation once to standard error, then one line each time its count doubles,
    /// and a summary at exit: the policy `warn-once` for everything.
    public static var log: Self { Self(LogViolationHandler()) }

    /// Ignore debug-tier violations (precondition-tier ones still print and trap: they guard memory
    /// safety).
    public static var off: Self { Self(IgnoreViolationHandler()) }

    /// Handle each violation at the level `policy` gives it, writing to standard error.
    ///
    /// - Parameter policy: Decides each violation's level.
    /// - Returns: The handler.
    public static func policy(_ policy: ConfinementPolicy) -> Self { Self(PolicyViolationHandler(policy)) }

    /// Handle each violation at the level `policy` gives it, writing each entry to `output` instead of
    /// standard error (for tests and custom sinks).
    ///
    /// - Parameters:
    ///   - policy: Decides each violation's level.
    ///   - output: Receives each entry, newline-terminated, one at a time, in order, on the library's
    ///     reporting thread (on the violating thread where a test framework is loaded).
    /// - Returns: The handler.
    public static func policy(_ policy: ConfinementPolicy, output: @escaping @Sendable (String) -> Void) -> Self {
        Self(PolicyViolationHandler(policy, output: output))
    }

    /// Append every violation to the file at `path`, one JSON object a line (the schema: the Reporting
    /// Violations article). A file that cannot be opened is said once on standard error, and each
    /// violation then goes there instead.
    ///
    /// - Parameter path: Where to append.
    /// - Returns: The handler.
    public static func jsonLines(path: String) -> Self { Self(JSONLinesViolationHandler(path: path)) }

    /// Call `body` for each violation.
    ///
    /// - Parameter body: Called for each violation, on the thread that detected it.
    /// - Returns: The handler.
    public static func custom(_ body: @escaping @Sendable (ConfinementViolation) -> Void) -> Self {
        Self(CustomViolationHandler(body))
    }
}

extension ConfinementViolationHandler {
    /// The handler the library stores and decides by: a built-in's own, else this one.
    package var unwrapped: any ConfinementViolationHandler {
        (self as? BuiltInViolationHandler)?.base ?? self
    }
}

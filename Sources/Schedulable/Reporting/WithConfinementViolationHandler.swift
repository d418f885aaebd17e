import CSchedulableContext

/// Runs `operation` with `handler` receiving the violations raised in it and the violations of every
/// protected object created in it (even when those are detected later, on other threads).
///
/// - Parameters:
///   - handler: The handler for this scope.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withConfinementViolationHandler<R>(
    _ handler: some ConfinementViolationHandler, operation: () throws -> R
) rethrows -> R {
    csched_note_scoped_handler_installed()
    return try ConfinementSystem.$explicitScopedHandler.withValue(handler.unwrapped, operation: operation)
}

/// Runs async `operation` with `handler` receiving the violations raised in it and the violations of
/// every protected object created in it.
///
/// - Parameters:
///   - handler: The handler for this scope.
///   - isolation: The caller's isolation, inherited by `operation`.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withConfinementViolationHandler<R>(
    _ handler: some ConfinementViolationHandler,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async rethrows -> R {
    csched_note_scoped_handler_installed()
    return try await ConfinementSystem.$explicitScopedHandler.withValue(handler.unwrapped, operation: operation)
}

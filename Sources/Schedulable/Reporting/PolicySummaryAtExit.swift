/// Prints the summary of the handlers that held reports back, once, when the process exits normally.
enum PolicySummaryAtExit {
    private static let handlers = LockedValue<[PolicyViolationHandler]>([])

    static func register(_ handler: PolicyViolationHandler) {
        let isFirst = handlers.withLock { handlers -> Bool in
            handlers.append(handler)
            return handlers.count == 1
        }
        if isFirst { ProcessExitHook.add(.summaries) { PolicySummaryAtExit.printAll() } }
    }

    private static func printAll() {
        for handler in handlers.withLock({ $0 }) { handler.printSummary() }
    }
}

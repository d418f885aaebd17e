/// Appends every violation it receives to a file, one JSON object a line — for CI to collect the
/// violations of a whole test run (the schema: the Reporting Violations article; the fields: ``ConfinementViolation/fields``).
///
/// The process-wide sink is switched on without code by the `SCHEDULABLE_CONFINEMENT_JSONL` environment
/// variable (a path): then every violation the library delivers, to any handler (test scopes included),
/// is also appended there. Each line is one `write` to a file opened with `O_APPEND`, so lines from
/// several threads and processes never interleave. Lines are built and written by the library's
/// reporting thread, in order (on the violating thread where a test framework is loaded);
/// ``ConfinementSystem/flushReports()`` waits until they are in the file (a normal exit and a trap wait
/// by themselves).
package final class JSONLinesViolationHandler: ConfinementViolationHandler {
    /// The file the lines go to.
    package let path: String
    private let descriptor: Int32?

    /// Opens (creating if needed) `path` for appending. A file that cannot be opened is reported on
    /// standard error once, with the system's reason; the handler then drops nothing silently — every
    /// violation it cannot write is printed to standard error instead.
    ///
    /// - Parameter path: Where to append.
    package init(path: String) {
        self.path = path
        let opened = StandardError.openForAppending(path)
        descriptor = opened.descriptor
        if let error = opened.error {
            StandardError.write(
                "Schedulable: cannot open \"\(path)\" for the JSON Lines violation log: \(error); "
                    + "violations go to standard error instead\n"
            )
        }
    }

    /// Appends `violation` as one line.
    ///
    /// - Parameter violation: What happened.
    package func handle(_ violation: ConfinementViolation) {
        append(violation, level: nil)
    }

    /// Appends `violation` with the level a policy gave it.
    /// The line is built (its stack symbolicated) and written on the library's reporting thread.
    func append(_ violation: ConfinementViolation, level: ConfinementLevel?) {
        let descriptor = descriptor
        ReportWriter.write(onReportingThread: ReportWriter.isDefaultInThisProcess) {
            guard let descriptor else {
                StandardError.write(violation.description + "\n")
                return
            }
            StandardError.write(violation.jsonLine(level: level), toDescriptor: descriptor)
        }
    }

    /// Appends `line` here and now, with one `write` (a headline, written on the violating thread: see
    /// ``ViolationHeadlines``); nothing when the file could not be opened (the headline is on standard
    /// error, and the full record goes there).
    func appendNow(_ line: String) {
        if let descriptor { StandardError.write(line, toDescriptor: descriptor) }
    }

    /// The sink `SCHEDULABLE_CONFINEMENT_JSONL` names, opened the first time it is needed.
    static let process: JSONLinesViolationHandler? = {
        guard let path = EnvironmentSetting.jsonLines.read()?.value,
            !path.isEmpty
        else { return nil }
        return JSONLinesViolationHandler(path: path)
    }()
}

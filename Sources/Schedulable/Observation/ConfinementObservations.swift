#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a run observed about which contexts use which objects — the input from which the audit tool
/// proposes owners (`swift package schedule-audit propose`).
///
/// Observation records instead of reporting. It covers types whose confinement is
/// ``Confinement/observed(file:line:)`` ("owner unknown, observe me"), always, and — at the
/// ``ConfinementLevel/observe`` level (`SCHEDULABLE_CONFINEMENT=observe`) — every violation of a type
/// with a declared owner. Nothing changes on the fast path: only a check that misses records.
///
/// When anything was observed, the process writes it at exit, as the observation file (format
/// `schedulable-observations`, version 2, described in the Adopting in an Existing Codebase article),
/// to the directory `SCHEDULABLE_CONFINEMENT_OBSERVATIONS` names (default `.schedulable/observations`
/// in the working directory), one file per process (`<executable>-<pid>.json`), so that the files of
/// parallel test processes and exit tests are merged by the audit tool. A process that stops on a trap
/// writes nothing (an exit test that expects one included): call ``write(toDirectory:)`` before it.
public enum ConfinementObservations {
    /// The environment variable naming the directory the observation file is written to:
    /// `SCHEDULABLE_CONFINEMENT_OBSERVATIONS`.
    package static let directoryEnvironmentVariable = "SCHEDULABLE_CONFINEMENT_OBSERVATIONS"

    /// The directory used when ``directoryEnvironmentVariable`` is not set: `.schedulable/observations`.
    package static let defaultDirectory = ".schedulable/observations"

    /// The version of the observation file's format this library writes.
    package static let formatVersion = 2

    /// Whether the process writes the observation file at exit when anything was observed (`true` by
    /// default). Turn it off to write it yourself with ``write(toDirectory:)``, or to keep a test
    /// process that observes on purpose from writing one.
    public static var writesFileAtExit: Bool {
        get { writesAtExit.withLock { $0 } }
        set { writesAtExit.withLock { $0 = newValue } }
    }

    private static let writesAtExit = LockedValue(true)

    /// Everything observed so far, as the observation file's JSON (what the process writes at exit).
    package static var json: String {
        Observation.File(types: Observation.Store.shared.snapshot).json
    }

    /// Writes the observation file now to `directory` (created if needed) as `<executable>-<pid>.json`.
    ///
    /// - Parameter directory: The directory; when `nil`, `SCHEDULABLE_CONFINEMENT_OBSERVATIONS`, else
    ///   `.schedulable/observations`.
    /// - Returns: The file's path, or the reason it could not be written.
    @discardableResult
    public static func write(toDirectory directory: String? = nil) -> Result<String, WriteError> {
        let directory = directory ?? StandardError.environmentValue(directoryEnvironmentVariable) ?? defaultDirectory
        if let reason = makeDirectories(directory) {
            return .failure(WriteError(path: directory, reason: reason))
        }
        let executable = CommandLine.arguments.first.map(CallStack.fileName(of:)) ?? "process"
        let path = directory + "/" + executable + "-\(getpid()).json"
        let temporary = path + ".partial"
        let opened = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            return .failure(WriteError(path: temporary, reason: String(cString: strerror(errno))))
        }
        StandardError.write(json, toDescriptor: opened)
        close(opened)
        guard rename(temporary, path) == 0 else {
            return .failure(WriteError(path: path, reason: String(cString: strerror(errno))))
        }
        return .success(path)
    }

    /// Registers the write at exit, once (the store calls it on its first observation).
    static func writeAtExit() {
        ProcessExitHook.add(.observations) {
            guard ConfinementObservations.writesFileAtExit else { return }
            let types = Observation.Store.shared.snapshot
            switch ConfinementObservations.write() {
            case .success(let path):
                StandardError.write(
                    "Schedulable: observed \(types.count) \(types.count == 1 ? "type" : "types"); wrote \(path) "
                        + "(propose owners: swift package schedule-audit propose \(path))\n"
                )
            case .failure(let error):
                // Nothing is lost silently: the observations go to standard error instead.
                StandardError.write("Schedulable: \(error); the observations follow\n" + ConfinementObservations.json)
            }
        }
    }

    /// Creates `directory` and its parents; the system's reason when one cannot be made.
    private static func makeDirectories(_ directory: String) -> String? {
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { return String(cString: strerror(errno)) }
            prefix += "/"
        }
        return nil
    }
}

extension ConfinementObservations {
    /// Why the observation file could not be written: what ``write(toDirectory:)`` returns on failure.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        /// The file or directory that could not be written.
        public let path: String
        /// The system's reason.
        public let reason: String

        /// `cannot write the observation file <path>: <reason>`.
        public var description: String { "cannot write the observation file \(path): \(reason)" }
    }
}

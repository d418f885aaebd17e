import Schedulable

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Settings read by the user interface: observed, no owner declared.
final class Preferences: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()

    func theme() -> String {
        preconditionIsolated()
        return "dark"
    }
}

/// A log kept by the upload queue: observed, no owner declared.
final class UploadLog: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()
    private var entries: [String] = []

    func append(_ entry: String) {
        preconditionIsolated()
        entries.append(entry)
    }
}

/// "observe": uses two observed objects, one on the main thread and one on a queue scheduler, then
/// exits normally, so that the observation file is written at exit (`ObservationTests`).
func runObservation() -> Never {
    let preferences = Preferences()
    _ = preferences.theme()
    let uploads = SerialQueueScheduler(label: "probe.observe")
    let log = UploadLog()
    uploads.sync { log.append("started") }
    uploads.sync { log.append("finished") }
    exit(0)
}

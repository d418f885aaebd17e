import Dispatch
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

/// A cache kept by a raw serial queue that the main thread calls into with `sync`.
final class RawQueueCache: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement.observed()

    func touch() {
        preconditionIsolated()
    }
}

/// "observe": uses observed objects — one on the main thread, one on a queue scheduler, one in a raw
/// serial queue's `sync` from the main thread (the queue's work, not the main thread's) — then exits
/// normally, so that the observation file is written at exit (`ObservationTests`).
func runObservation() -> Never {
    let preferences = Preferences()
    _ = preferences.theme()
    let uploads = SerialQueueScheduler(label: "probe.observe")
    let log = UploadLog()
    uploads.sync { log.append("started") }
    uploads.sync { log.append("finished") }
    let raw = DispatchQueue(label: "probe.observe.raw")
    let cache = RawQueueCache()
    raw.sync { cache.touch() }
    raw.sync { cache.touch() }
    exit(0)
}

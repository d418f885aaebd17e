import Schedulable

// Fixture for the schedule-audit tests: a type the audit must pass cleanly. Every form the audit
// accepts as "deliberately unchecked" appears once.

let uploads = SerialQueueScheduler(label: "com.example.uploads")

/// A reference type that is safe to share: `let` properties of it are fine.
final class UploadLog: Sendable {
    let name = "uploads"
}

final class CleanUploader: ConfinedObject {
    let confinement = Confinement(
        owner: uploads,
        options: .exclude(.property(\CleanUploader.retries)).excluding(.method("cancelAll()"))
    )
    @Confined var pending: [String] = []
    @Confined(name: "isPaused") var isPaused = false
    var retries = 0  // excluded above: read for statistics only, a stale value is harmless
    // schedule-audit:ignore — written once in init, before the object is shared
    var createdAt = 0
    let log = UploadLog()
    let scheduler = uploads

    /// Computed: no storage of its own, reads the protected `pending`.
    var count: Int { pending.count }

    /// Stored with an observer, but wrapped: still checked.
    @Confined var progress = 0.0 {
        didSet { if progress > 1 { progress = 1 } }
    }

    func enqueue(_ name: String) {
        preconditionIsolated()
        pending.append(name)
    }

    func pause() {
        assertIsolated()
        isPaused = true
    }

    func statusText() -> String {
        guard isIsolated else { return "busy" }
        return "\(pending.count) pending"
    }

    func cancelAll() {
        // Deliberately unchecked (excluded in the options): only swaps in a fresh, empty state.
        retries = 0
    }

    private func helper() -> Int { 1 }
}

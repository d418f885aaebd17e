import Schedulable

// Fixture for the schedule-audit tests: one of each finding. The expected findings are listed in
// ScheduleAuditorTests; keep the two in step.

final class PhotoCache {
    var photos: [String] = []
}

/// Adopting through a protocol that refines ConfinedObject.
protocol UploadService: ConfinedObject {}

class FlawedUploader: UploadService {
    let confinement = Confinement(
        owner: uploads,
        options: ConfinementOptions<FlawedUploader>.exclude(.method("reset"))
    )
    @Confined var pending: [String] = []
    var attempts = 0
    let cache = PhotoCache()

    func reset() {
        attempts = 0
    }

    func enqueue(_ name: String) {
        assertIsolated()
        pending.append(name)
    }
}

/// Adopting through a superclass.
final class FlawedSubclass: FlawedUploader {
    lazy var thumbnails: [String] = []

    override func reset() {
        if isIsolated { super.reset() }
    }

    /// Mentions the guards only in a comment and a string: not a guard call.
    func describe() -> String {
        // assertIsolated()
        "isIsolated: \("preconditionIsolated()")"
    }
}

/// Include options: only `pause()` would be checked, and it has no guard.
final class IncludingUploader: ConfinedObject {
    let confinement = Confinement(
        owner: uploads,
        options: .include(.method("pause()"), .property(\IncludingUploader.pending))
    )
    @Confined var pending = 0

    func pause() {}
}

/// Not protectable: never audited, however many unguarded members it has.
final class PlainCounter {
    var count = 0
    func increment() { count += 1 }
}

/// A fixed owner handed off by the class's own method: the owner cannot change.
final class MovingUploader: ConfinedObject {
    let confinement = Confinement(owner: uploads)
    @Confined var pending = 0

    func moveToBackground() {
        preconditionIsolated()
        handOff(to: uploads)
    }
}

/// Confined state kept `private`: the symbol graph lists these members without a location, so the
/// audit finds them in the class's body.
final class PrivateStateUploader: ConfinedObject {
    let confinement = Confinement(owner: uploads)
    private var retries = 0
    fileprivate var lastError: String?
    @Confined private var pending: [String] = []
    private var isBusy: Bool { !pending.isEmpty }

    func retry() {
        preconditionIsolated()
        retries += 1
        lastError = isBusy ? nil : "idle"
    }
}

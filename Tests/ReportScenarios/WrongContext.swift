import Schedulable

// The README's Usage example, as printed there: its last line is the report the README shows.

let uploads = SerialQueueScheduler(label: "com.app.uploads", qos: .utility)

final class UploadQueue: ConfinedObject {
    let confinement = Confinement(owner: uploads)   // owner + bind site
    @Confined var pending: [String] = []            // checked on get / set / modify
    @Confined var isPaused = false

    func enqueue(_ photos: [String]) {
        assertIsolated()                            // method guard, debug tier
        pending += photos                           // one check, not two
    }
}

func wrongContext() {
    // Swift 6 lets a non-Sendable object cross threads only inside a Sendable, always-checked handle:
    let queue = SchedulableObject(UploadQueue(), on: uploads)
    queue.schedule { $0.enqueue(["beach.jpg"]) }           // fine: runs on the owner
    uploads.schedule { queue.object.enqueue(["a.jpg"]) }   // fine: on the owner, direct access
    uploads.sync {}                                        // both have run: the owner is idle
    queue.object.enqueue(["oops.jpg"])                     // reported, then stopped: wrong thread
}

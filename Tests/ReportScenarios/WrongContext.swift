import Dispatch
import Schedulable

/// The README's upload queue, and one bad access from a helper on another queue while the owner
/// works: the bug ThreadSanitizer sees as a data race on `pending` (the same program, built with
/// `-sanitize=thread`, is the article's side-by-side).
let uploads = SerialQueueScheduler(label: "com.app.uploads")

final class UploadQueue: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement(owner: uploads)
    @Confined var pending: [String] = []
    @Confined var isPaused = false

    func enqueue(_ photos: [String]) { pending += photos }
}

func forgetPending(_ queue: UploadQueue) {
    queue.pending.removeAll()          // the bad access: not on com.app.uploads
}

func wrongContext() {
    let queue = UploadQueue()
    let network = DispatchQueue(label: "com.app.network")
    let done = DispatchGroup()
    done.enter()
    uploads.schedule {
        for photo in 1...1_000 { queue.enqueue(["IMG_\(photo).jpg"]) }
        done.leave()
    }
    network.async(group: done) { forgetPending(queue) }
    done.wait()
}
